
config cidrBlock string { }
output cidrBlock {
  value = cidrBlock
}
