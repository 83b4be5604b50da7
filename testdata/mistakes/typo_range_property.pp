# mistake: line 3: unknown-property: a misspelt property of `range`
resource w "tiny:index:Widget" {
  name = "w-${range.vlaue}"
  options {
    range = 2
  }
}
