
config "a" "int" {}
config "b" "number" {}

output "result" {
  value = max(a, b)
}
