# mistake: line 5: constant-never-converts: a number as a bool option
resource w "tiny:index:Widget" {
  name = "w"
  options {
    retainOnDelete = 2
  }
}
