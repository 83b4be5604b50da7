# mistake: line 2: unknown-type: a misspelt type keyword
config port numbr {
  default = 80
}
