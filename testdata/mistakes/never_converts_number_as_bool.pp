# mistake: line 5: constant-never-converts: a number other than 0 or 1 as a bool option
resource w "tiny:index:Widget" {
  name = "w"
  options {
    retainOnDelete = 2
  }
}
