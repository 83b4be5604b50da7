// flags: --skip-resource-typecheck
// binder-vectors E17: warnings only.
resource randomPet "random:index/randomPet:RandomPet" {
  unknown = "doggo"
}

output mainId {
  value = randomPet.unknownProperty
}
