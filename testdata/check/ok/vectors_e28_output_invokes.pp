// flags: --prefer-output-versioned-invokes
// binder-vectors E28: no diagnostics; azs is an output.
azs = invoke("infra:index:getZones", {})

resource randomPet "random:index/randomPet:RandomPet" {
  options {
    range = length(azs.filters)
  }
  prefix = element(azs.filters[*].name, range.value)
}
