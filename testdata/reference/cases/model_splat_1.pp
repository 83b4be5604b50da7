config a "list(list(string))" {
}
x = a[*][0]
