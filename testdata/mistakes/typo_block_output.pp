# mistake: line 5: unknown-block-type: a misspelt `output` keyword
resource w "tiny:index:Widget" {
  name = "w"
}
ouput n {
  value = w.name
}
