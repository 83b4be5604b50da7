// binder-vectors E12b. Deliberate difference: the reference fails the whole bind
// with a bare Go error and no diagnostics (eager package loading, binder.md §5.2);
// pcl reports one unknown-package error per package and keeps checking.
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
