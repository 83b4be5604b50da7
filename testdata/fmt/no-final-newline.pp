a = 1
b = 2 # no line break at the end