// binder-vectors G5: property names in ignoreChanges & co. are not dependencies (no self-cycle),
// but a top-level input that happens to be called ignoreChanges is an ordinary expression.
resource property "foo:index:Foo" {
  property = "p"
  options {
    ignoreChanges = [property]
  }
}

resource other "foo:index:Foo" {
  property = "p"
  options {
    ignoreChanges           = [property]
    hideDiffs               = [property]
    replaceOnChanges        = [property]
    additionalSecretOutputs = [property]
  }
}

target = "t"

resource bar "foo:index:Bar" {
  ignoreChanges = target
}

resource dependent "foo:index:Foo" {
  property = "p"
  options {
    dependsOn     = [bar]
    ignoreChanges = [property]
  }
}
