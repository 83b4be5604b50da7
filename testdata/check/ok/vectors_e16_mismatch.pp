// flags: --skip-resource-typecheck
// binder-vectors E16: the mismatch is a warning.
config data "list(string)" {}

resource randomPet "random:index/randomPet:RandomPet" {
  prefix = data
}
