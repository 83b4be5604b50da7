environment = "aws" {}
a = 1 b = 2
c: 1
d = nope
