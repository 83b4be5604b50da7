# [31mred[0m
a = 1
b = nope
