// binder-vectors E14b: one unknown-resource-type error.
resource main "random:index:unknown" {
  first  = "hello"
  second = { foo = "bar" }
}

output mainId {
  value = main.id
}
