config b "int" {
}
config h "map(bool)" {
}
x = h[b]
