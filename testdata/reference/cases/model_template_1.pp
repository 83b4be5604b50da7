config d "list(string)" {
}
x = "v: ${d}"
