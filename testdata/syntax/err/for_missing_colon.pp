a = [for v in xs v]
