config e "object({foo=list(string), bar=object({baz=string})})" {
}
x = e.bar.baz
