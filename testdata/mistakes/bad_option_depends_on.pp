# mistake: line 8: type-not-convertible: `dependsOn` given one resource, not a list
resource a "tiny:index:Widget" {
  name = "a"
}
resource b "tiny:index:Widget" {
  name = "b"
  options {
    dependsOn = "a"
  }
}
