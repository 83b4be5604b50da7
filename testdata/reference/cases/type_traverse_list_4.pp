config i "int" {
}
config l "list(any)" {
}
x = l[i]
