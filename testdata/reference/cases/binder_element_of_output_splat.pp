
azs = invoke("infra:index:getZones", {})

resource "randomPet" "random:index/randomPet:RandomPet" {
	options { range = length(azs.filters) }
	prefix = element(azs.filters[*].name, range.value)
}
