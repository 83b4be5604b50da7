// flags: --skip-resource-typecheck
// binder-vectors E12: resources of an unknown package bind as dynamic. One warning for the
// package; deliberate difference: the reference also warns "unsupported attribute" for every
// attribute of such a resource (its input type is an empty object), pcl does not.
resource provider "pulumi:providers:unknown" {
}

resource main "unknown:index:main" {
  first  = "hello"
  second = { foo = "bar" }
}

resource fromModule "unknown:eks:example" {
  options {
    range = 10
  }
  associatedMain = main.id
  anotherValue   = main.unknown
}

output mainId {
  value = main.id
}

output values {
  value = fromModule.values.first
}
