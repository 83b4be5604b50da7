# mistake: line 3: unsupported-attribute: a required input misspelt (one diagnostic, not two)
resource w "tiny:index:Widget" {
  nme = "w"
}
