config s "set(any)" {
}
x = s[0]
