# mistake: line 3: constant-never-converts: the number 1 as the bool input `special`
resource p "random:index/randomString:RandomString" {
  special = 1
  length  = 16
}
