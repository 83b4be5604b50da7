// flags: --allow-missing-variables
// binder-vectors E21: one undefined-variable warning.
resource randomPet "random:index/randomPet:RandomPet" {
  options {
    parent = parentComponentVariable
  }
}
