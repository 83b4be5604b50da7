# mistake: line 4: attribute-type-mismatch: a misspelt enum value
resource w "tiny:index:Widget" {
  name = "w"
  size = "smal"
}
