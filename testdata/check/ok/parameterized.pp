package {
  baseProviderName    = "base"
  baseProviderVersion = "1.0.0"
  parameterization {
    name    = "ext"
    version = "0.3.0"
    value   = "ZXh0"
  }
}

resource t "ext:index:Thing" {
  value = "v"
}

output v { value = t.value }
