a = [1,
z = nope
