a = 1
b = "x"
