
args = secret({a = 1, b = 2})
result = invoke("std:index:Abs", args)
