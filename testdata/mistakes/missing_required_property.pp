# mistake: line 2: missing-required-attribute: a required input left out
resource w "tiny:index:Widget" {
  count = 2
}
