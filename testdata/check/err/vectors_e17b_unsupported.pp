// binder-vectors E17b: unsupported attribute and unknown property.
resource randomPet "random:index/randomPet:RandomPet" {
  unknown = "doggo"
}

output mainId {
  value = randomPet.unknownProperty
}
