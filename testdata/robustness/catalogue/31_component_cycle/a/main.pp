component b "./b" {}
output o {
  value = 1
}
