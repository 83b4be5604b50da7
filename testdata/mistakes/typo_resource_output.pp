# mistake: line 6: unknown-property: a misspelt output property of a resource
resource w "tiny:index:Widget" {
  name = "w"
}
output n {
  value = w.nmae
}
