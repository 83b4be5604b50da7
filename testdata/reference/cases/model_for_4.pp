x = [for k, v in {}: [k, v]]
