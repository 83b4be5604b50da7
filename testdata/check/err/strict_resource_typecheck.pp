// Strict: resource problems are errors (binder-vectors E14b, E16b, E17b; compare ok/skip_resource_typecheck.pp).
config data "list(string)" {}

resource pet "tiny:index:Widget" {
  name    = data
  unknown = "doggo"
}

resource main "tiny:index:unknown" {
  first  = "hello"
  second = { foo = "bar" }
}

mainId     = main.id
unknownOut = pet.unknownProperty
