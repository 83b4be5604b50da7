# mistake: line 4: unknown-property: a misspelt key inside an object property
resource w "tiny:index:Widget" {
  name     = "w"
  settings = { enabled = true, ratoi = 0.5 }
}
