x = {true = 1, null = 2}
