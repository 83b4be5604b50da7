
resource "randomPetA" "random:index/randomPet:RandomPet" {
	prefix = randomPetB.prefix
}

resource "randomPetB" "random:index/randomPet:RandomPet" {
	prefix = randomPetA.prefix
}