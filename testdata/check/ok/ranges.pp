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

config anything {}

# A tuple ranges like a list; its elements unify.
resource tupled "tiny:index:Widget" {
  name = range.value
  options { range = ["a", "b"] }
}

# An untyped range: a list of resources, `range.key` and `range.value` dynamic.
resource untyped "tiny:index:Widget" {
  name = range.value.name
  options { range = anything }
}

# Output collections: the variable is an output of the list or map, and
# `range.key`/`range.value` come from the resolved collection.
resource outputList "tiny:index:Widget" {
  name = range.value
  options { range = secret(names) }
}

resource outputMap "tiny:index:Widget" {
  name = "${range.key}=${range.value}"
  options { range = secret(byName) }
}

# An output bool: an output of an optional resource.
resource outputBool "tiny:index:Widget" {
  name = "maybe"
  options { range = secret(flag) }
}

# References see the ranged variable types.
firstListed   = listed[0].arn
mappedByKey   = mapped["a"].arn
maybeArn      = maybe.arn
outputListArn = outputList[0].arn
