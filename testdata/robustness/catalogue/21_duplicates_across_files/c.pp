pulumi {
  requiredVersion = ">=3.0.0"
}
package "tiny" {
  baseProviderName = "tiny"
  baseProviderVersion = "2.0.0"
}
