config i "int" {
}
config m "map(any)" {
}
x = m[i]
