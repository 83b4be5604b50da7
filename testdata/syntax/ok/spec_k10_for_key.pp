x = {baz = 2, for = 1}
