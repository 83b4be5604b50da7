// binder-vectors E24: the same package block in two files is one descriptor.
package {
  baseProviderName    = "parameterized"
  baseProviderVersion = "1.2.3"
  parameterization {
    name    = "subpackage"
    version = "2.0.0"
    value   = "SGVsbG8="
  }
}

resource r "subpackage:index:Foo" {
}
