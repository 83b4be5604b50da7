# mistake: line 2: unknown-block-type: a misspelt `resource` keyword (the name is used below)
resorce w "tiny:index:Widget" {
  name = "w"
}
output n {
  value = w.name
}
