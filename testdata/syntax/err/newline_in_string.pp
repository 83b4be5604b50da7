a = "x
y"
b = 1
