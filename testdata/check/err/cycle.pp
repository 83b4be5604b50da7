a = b
b = c
c = a
self = self
