config b "int" {
}
config g "list(bool)" {
}
x = g[b]
