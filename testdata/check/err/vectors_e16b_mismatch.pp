// binder-vectors E16b. Deliberate difference: the reference's message has an empty
// summary and the detail `Cannot assign value list(string) to attribute of type
// "Optional<string>" for resource "random::RandomPet"`, and it reports mismatches only
// on properties that are also outputs; pcl names the property and both types, always.
config data "list(string)" {}

resource randomPet "random:index/randomPet:RandomPet" {
  prefix = data
}
