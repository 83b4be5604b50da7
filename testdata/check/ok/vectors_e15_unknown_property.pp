// flags: --skip-resource-typecheck
// binder-vectors E15: unknownId's value is dynamic, knownId's output(id).
resource randomPet "random:index/randomPet:RandomPet" {
  prefix = "doggo"
}

output unknownId {
  value = randomPet.unknownProperty
}

output knownId {
  value = randomPet.id
}
