true = 1
for = 2
null = 3
