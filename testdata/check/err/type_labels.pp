// Invalid config and output type labels (binder.md §4.3).
// Deliberate difference: a label naming no type (`strin`) is `unknown type 'strin'` with a
// did-you-mean (`unknown-type`); the reference says `undefined variable strin`.
config notObject "object(string)" {}
config notTuple "tuple(string)" {}
config optionalTwo "optional(string, int)" {}
config unknownName "lst(string)" {}
config notParsed "list(" {}

output typedOut "map(strin)" {
  value = {}
}
