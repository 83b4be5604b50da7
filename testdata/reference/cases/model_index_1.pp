config a "string" {
}
config g "list(bool)" {
}
x = g[a]
