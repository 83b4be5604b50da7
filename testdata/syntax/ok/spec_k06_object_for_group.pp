x = {for k, v in x : k => v...}
