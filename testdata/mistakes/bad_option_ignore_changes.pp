# mistake: line 5: type-not-convertible: `ignoreChanges` naming a property with quotes
resource w "tiny:index:Widget" {
  name = "w"
  options {
    ignoreChanges = ["name"]
  }
}
