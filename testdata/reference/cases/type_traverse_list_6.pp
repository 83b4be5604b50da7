config l "list(any)" {
}
x = l[l]
