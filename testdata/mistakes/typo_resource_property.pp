# mistake: line 4: unsupported-attribute: a misspelt optional input property
resource w "tiny:index:Widget" {
  name = "w"
  sise = "small"
}
