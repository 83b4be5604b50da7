# mistake: line 2: unknown-block-type: a misspelt `read` keyword
raed old "tiny:index:Widget" {
  id = "w-1"
}
