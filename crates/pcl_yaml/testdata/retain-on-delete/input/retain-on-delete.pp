resource foo "random:index/randomPet:RandomPet" {
  options {
    retainOnDelete = true
  }
}
