config a "string" {
}
config h "map(bool)" {
}
x = h[a]
