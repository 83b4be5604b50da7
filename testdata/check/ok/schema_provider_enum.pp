// A provider's string-typed outputs are kept (the reference drops the
// others: non-string provider configuration is JSON-serialised): a
// string, a string enum named by a bare `$ref` (no `"type": "string"`
// hint needed) and a token type with a string hint.
resource prov "pulumi:providers:provenum" {
  aString = "x"
}

output anEnum {
  value = prov.aEnum
}

output aToken {
  value = prov.aToken
}

output aString {
  value = prov.aString
}
