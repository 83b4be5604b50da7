config "x" "lisst(string)" {}
output "o" "list(" {
  value = 1
}
y = x
