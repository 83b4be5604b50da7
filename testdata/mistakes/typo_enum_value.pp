# mistake: line 4: unknown-enum-value: a misspelt enum value
resource w "tiny:index:Widget" {
  name = "w"
  size = "smal"
}
