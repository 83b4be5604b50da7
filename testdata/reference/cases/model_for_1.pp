x = {for k, v in {foo = "bar"}: k => v}
