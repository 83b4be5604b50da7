x = [for k, _ in {}: k].0
