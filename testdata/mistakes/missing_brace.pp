# mistake: line 2: unclosed-block: a missing `}` (the blocks after it are swallowed)
resource a "random:index/randomString:RandomString" {
  length = 8

resource b "random:index/randomString:RandomString" {
  length  = 8
  special = a.special
}
output x {
  value = b.result
}
