resource x "tiny:index:Widget" {
  name = "x"
  kind = "widget"
}
package "tiny" {
  baseProviderName = "tiny"
  baseProviderVersion = "1.0.0"
}
