
config "y" "any" {}
resource "rng" "random:index/randomInteger:RandomInteger" {
	min = 0
	max = 100
}
result = invoke("std:index:Abs", {a = rng.result, b = y})
