x = [for, foo]
