config m "map(any)" {
}
x = m[[0]]
