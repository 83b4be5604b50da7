# mistake: line 4: attribute-type-mismatch: a list as a map value
resource w "tiny:index:Widget" {
  name = "w"
  tags = { team = ["a"] }
}
