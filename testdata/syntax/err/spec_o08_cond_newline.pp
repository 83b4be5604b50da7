a = x ?
 y : z
