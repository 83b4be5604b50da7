a = "abc
b = 1
c = nope
