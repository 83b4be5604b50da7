# mistake: line 5: cannot-iterate: a string as `range`
resource w "tiny:index:Widget" {
  name = "w"
  options {
    range = "abc"
  }
}
