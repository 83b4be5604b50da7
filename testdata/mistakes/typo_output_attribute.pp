# mistake: line 6: unknown-block-attribute: a misspelt `value` in an output
resource w "tiny:index:Widget" {
  name = "w"
}
output n {
  vaule = w.name
}
