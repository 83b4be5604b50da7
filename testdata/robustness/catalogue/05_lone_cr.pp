a = 1b = nope
