# mistake: line 3: expected-attribute-or-block: a missing `=` before a string
resource w "tiny:index:Widget" {
  name "w"
}
