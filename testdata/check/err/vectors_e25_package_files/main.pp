// binder-vectors E25: a different parameterization version in another file.
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
