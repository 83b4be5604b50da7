// flags: --skip-resource-typecheck
// binder-vectors E14: an unknown resource type is silently dynamic.
resource main "random:index:unknown" {
  first  = "hello"
  second = { foo = "bar" }
}

output mainId {
  value = main.id
}
