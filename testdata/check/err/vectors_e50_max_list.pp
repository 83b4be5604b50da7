config "a" "int" {}
config "b" "list(string)" {}

output "result" {
  value = max(a, b)
}

# Deliberate difference: the reference's message ends in ": " (trailing-colon-space)
# and has no detail; pcl drops the separator and names the argument and what was
# expected and found, in plain types (`int`, not the input union `int | output(int)`).
