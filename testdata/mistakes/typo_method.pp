# mistake: line 5: unknown-method: a misspelt resource method
resource w "tiny:index:Widget" {
  name = "w"
}
described = call(w, "descibe", {})
