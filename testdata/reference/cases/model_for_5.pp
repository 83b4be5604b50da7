x = [for v in []: v]
