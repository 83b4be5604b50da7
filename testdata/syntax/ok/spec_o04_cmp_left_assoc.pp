x = a < b < c
