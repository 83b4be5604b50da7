config o "object({foo=bool, bar=int, baz=number, qux=optional(bool)})" {
}
config str "string" {
}
x = o[str]
