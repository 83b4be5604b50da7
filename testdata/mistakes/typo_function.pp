# mistake: line 3: unknown-function: a misspelt builtin function
names = ["a", "b"]
joined = jion(",", names)
