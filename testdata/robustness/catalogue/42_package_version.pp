package {
  baseProviderName = "tiny"
  baseProviderVersion = "v1..2"
}
