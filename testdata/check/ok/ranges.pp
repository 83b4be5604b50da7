config flag bool {}
config names "list(string)" {}
config byName "map(string)" {}

resource maybe "tiny:index:Widget" {
  name = "maybe"
  options { range = flag }
}

resource counted "tiny:index:Widget" {
  name = "n-${range.value}"
  options { range = 3 }
}

resource listed "tiny:index:Widget" {
  name = range.value
  options { range = names }
}

resource mapped "tiny:index:Widget" {
  name = "${range.key}-${range.value}"
  options { range = byName }
}

resource objected "tiny:index:Widget" {
  name = range.key
  options { range = { a = 1, b = 2 } }
}

resource fromOutput "tiny:index:Widget" {
  name = range.value
  options { range = counted[*].arn }
}
