foo = 1
a = "${foo"
b = 1
