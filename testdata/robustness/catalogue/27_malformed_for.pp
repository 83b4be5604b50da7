y = [1]
m = {}
a = [for x in y]
b = {for k, v in m : k}
c = [for a, b, c in y : a]
d = nope
