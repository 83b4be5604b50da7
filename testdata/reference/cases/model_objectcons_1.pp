x = {"foo": "oof", 0: 42, false: true}
