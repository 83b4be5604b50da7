config b "list(object({foo=list(string), bar=object({baz=string})}))" {
}
x = b[*].bar.baz
