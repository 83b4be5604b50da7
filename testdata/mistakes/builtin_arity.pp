# mistake: line 2: missing-argument: a builtin called without arguments
n = length()
