a = "%{ if true }y"
b = 1
