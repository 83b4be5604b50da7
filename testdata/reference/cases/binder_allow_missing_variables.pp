
resource randomPet "random:index/randomPet:RandomPet" {
	options { parent = parentComponentVariable }
}