x = 1
a = 1
a = 2
package "tiny" {
  baseProviderName = "tiny"
  baseProviderVersion = "1.0.0"
}
