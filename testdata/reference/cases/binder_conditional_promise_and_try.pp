
config "x" "any" {}
isOne = invoke("std:index:Abs", {a = 1, b = 1}).result == 1
a = isOne ? x : null
b = true ? a : try(x, null)
