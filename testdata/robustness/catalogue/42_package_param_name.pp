package {
  baseProviderName = "tiny"
  baseProviderVersion = "1.0.0"
  parameterization {
    name = ""
    version = "1.0.0"
    value = "eA=="
  }
}
