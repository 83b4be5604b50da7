// binder-vectors E37, E38: a resource referring to itself, and two referring to each other.
// Deliberate difference: the reference also reports `unknown property 'prefix' among [id urn]`
// on the read along the cycle (the resource is seen with its provisional type); pcl reports
// the cycle only (one mistake, one diagnostic).
resource randomPet "random:index/randomPet:RandomPet" {
  prefix = randomPet.prefix
}

resource randomPetA "random:index/randomPet:RandomPet" {
  prefix = randomPetB.prefix
}

resource randomPetB "random:index/randomPet:RandomPet" {
  prefix = randomPetA.prefix
}
