// Invalid config and output type labels (binder.md §4.3).
config notObject "object(string)" {}
config notTuple "tuple(string)" {}
config optionalTwo "optional(string, int)" {}
config unknownName "lst(string)" {}
config notParsed "list(" {}

output typedOut "map(strin)" {
  value = {}
}
