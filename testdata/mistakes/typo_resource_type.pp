# mistake: line 2: unknown-resource-type: a misspelt resource type token
resource w "tiny:index:Widgt" {
  name = "w"
}
