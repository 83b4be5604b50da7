
config "randomPrefixes" "list(object({ prefix: string }))" {
	default = []
}

resource "randomPet" "random:index/randomPet:RandomPet" {
	options { range = length(randomPrefixes) }
	prefix = element(randomPrefixes[*].prefix, range.value)
}
