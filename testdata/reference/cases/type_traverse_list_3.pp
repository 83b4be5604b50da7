config l "list(any)" {
}
x = l[0]
