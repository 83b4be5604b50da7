# mistake: line 2: circular-reference: two resources that read each other's outputs
resource a "random:index/randomPet:RandomPet" {
  prefix = b.id
}
resource b "random:index/randomPet:RandomPet" {
  prefix = a.prefix
}
