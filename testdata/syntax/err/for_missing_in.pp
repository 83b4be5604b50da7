a = [for v xs : v]
