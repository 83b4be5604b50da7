// binder-vectors E15b. Deliberate difference: the reference lists every member
// (`unknown property 'unknownProperty' among [id keepers length prefix separator urn]`);
// past five members pcl names only the property, with a did-you-mean when one is close.
resource randomPet "random:index/randomPet:RandomPet" {
  prefix = "doggo"
}

output unknownId {
  value = randomPet.unknownProperty
}

output knownId {
  value = randomPet.id
}
