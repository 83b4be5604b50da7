
config "a" "int" {}
config "b" "string" {}

output "result" {
  value = max(a, b)
}
