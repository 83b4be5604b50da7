config b "int" {
}
config i "object({foo=bool})" {
}
x = i[b]
