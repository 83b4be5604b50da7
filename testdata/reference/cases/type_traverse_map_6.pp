config m "map(any)" {
}
x = m[m]
