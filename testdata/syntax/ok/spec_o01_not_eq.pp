x = !a == b
