// binder-vectors E37, E38: a resource referring to itself, and two referring to each other.
resource randomPet "random:index/randomPet:RandomPet" {
  prefix = randomPet.prefix
}

resource randomPetA "random:index/randomPet:RandomPet" {
  prefix = randomPetB.prefix
}

resource randomPetB "random:index/randomPet:RandomPet" {
  prefix = randomPetA.prefix
}
