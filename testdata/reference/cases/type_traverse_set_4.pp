config i "int" {
}
config s "set(any)" {
}
x = s[i]
