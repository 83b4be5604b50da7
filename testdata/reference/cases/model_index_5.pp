config a "string" {
}
config i "object({foo=bool})" {
}
x = i[a]
