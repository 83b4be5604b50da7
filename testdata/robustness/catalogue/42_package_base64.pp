package {
  baseProviderName = "tiny"
  baseProviderVersion = "1.0.0"
  parameterization {
    name = "p2"
    version = "1.0.0"
    value = "not base64!!"
  }
}
