config o "object({foo=bool, bar=int, baz=number, qux=optional(bool)})" {
}
x = o[o]
