
config data "list(string)" {}
resource randomPet "random:index/randomPet:RandomPet" {
  prefix = data
}