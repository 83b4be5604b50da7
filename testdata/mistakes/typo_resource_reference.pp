# mistake: line 6: undefined-variable: a misspelt resource name
resource w "tiny:index:Widget" {
  name = "w"
}
output n {
  value = wdget.name
}
