foo = {}
a = foo.
z = nope
