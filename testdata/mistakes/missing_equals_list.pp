# mistake: line 4: expected-attribute-or-block: a missing `=` before a list
resource w "tiny:index:Widget" {
  name = "w"
  labels ["a"]
}
