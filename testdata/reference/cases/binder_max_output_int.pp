
config "b" "int" {}

resource "ri" "random:index/randomInteger:RandomInteger" {
  min = 0
  max = 10
}

output "result" {
  value = max(ri.result, b)
}
