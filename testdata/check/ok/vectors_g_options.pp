// binder-vectors G1, G3, G6 (binder_resource_test.go): options of resources and reads, quoted keys.
resource f1 "foo:index:Foo" {
  property = "42"
  options {
    range = 42
  }
}

resource f2 "foo:index:Foo" {
  property = "42"
  options {
    protect                 = true
    retainOnDelete          = true
    version                 = "1.2.3"
    pluginDownloadURL       = "https://example.com/whatever"
    import                  = "abc123"
    deletedWith             = "abc123"
    ignoreChanges           = [property]
    hideDiffs               = [property]
    additionalSecretOutputs = [property]
  }
}

read r1 "foo:index:Foo" {
  id = "42"
  options {
    protect        = true
    retainOnDelete = true
    import         = "abc123"
    customTimeouts = { create = "5m" }
  }
}

resource quoted "foo:index:Foo" {
  property = "p"
  spec = {
    "template" = {
      name = "first"
    }
  }
}
