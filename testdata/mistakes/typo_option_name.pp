# mistake: line 5: unsupported-attribute: a misspelt resource option
resource w "tiny:index:Widget" {
  name = "w"
  options {
    protec = true
  }
}
