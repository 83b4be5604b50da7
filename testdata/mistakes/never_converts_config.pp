# mistake: line 3: constant-never-converts: a string that is no number as an int default
config n int {
  default = "three"
}
