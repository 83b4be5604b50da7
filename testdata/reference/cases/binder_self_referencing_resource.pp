
resource "randomPet" "random:index/randomPet:RandomPet" {
	prefix = randomPet.prefix
}