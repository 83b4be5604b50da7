config om "map(string)" {
  default = null
}
x = om[0]
