# mistake: line 5: constant-never-converts: a string that is no bool as `protect`
resource w "tiny:index:Widget" {
  name = "w"
  options {
    protect = "yes"
  }
}
