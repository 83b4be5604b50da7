
config "a" "int" {}
config "b" "list(string)" {}

output "result" {
  value = max(a, b)
}
