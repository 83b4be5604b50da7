// flags: --skip-resource-typecheck
// Resource problems are warnings; the unknown resource type is silently dynamic (binder-vectors E14, E16, E17).
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
