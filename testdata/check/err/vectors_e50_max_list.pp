config "a" "int" {}
config "b" "list(string)" {}

output "result" {
  value = max(a, b)
}

# Deliberate difference: the reference's message ends in ": " (trailing-colon-space)
# and has no detail; pcl drops the separator and explains the mismatch in the detail.
