x = [0, "foo", true]
