x = a-1
