// flags: --lenient
// All five lenient options at once (NonStrictBindOptions): only warnings.
resource r "tiny:index:Wigdet" {
  nmae = "x"
}

value = [for x in "abc" : undefinedName]
