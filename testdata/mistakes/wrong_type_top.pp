# mistake: line 4: attribute-type-mismatch: a list where a number is expected
resource w "tiny:index:Widget" {
  name  = "w"
  count = [1]
}
