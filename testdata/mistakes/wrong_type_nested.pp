# mistake: line 4: attribute-type-mismatch: a wrong type inside an object property
resource w "tiny:index:Widget" {
  name     = "w"
  settings = { enabled = [true] }
}
