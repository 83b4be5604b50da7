// Strict version of ok/lenient_all.pp.
resource r "tiny:index:Wigdet" {
  nmae = "x"
}

value = [for x in "abc" : undefinedName]
