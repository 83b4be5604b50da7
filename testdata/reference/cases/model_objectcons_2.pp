config a "string" {
}
config b "number" {
}
config c "bool" {
}
x = {(a): a, (b): b, (c): c}
