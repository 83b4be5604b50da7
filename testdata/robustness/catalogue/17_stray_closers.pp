}
a = [1, 2]]
b = nope
