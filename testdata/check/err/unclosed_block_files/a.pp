# The first resource misses its `}`: the parser reads the blocks after it
# as nested in it. One diagnostic: the unclosed block. The names declared
# by the swallowed blocks are not also undefined in `b.pp`.
resource first "random:index/randomString:RandomString" {
  length = 8

resource second "random:index/randomString:RandomString" {
  length = 4
}

config region string {
  default = "eu"
}
