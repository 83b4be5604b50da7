
config "a" "number" {}
config "b" "int" {}

output "result" {
  value = min(a, b)
}
