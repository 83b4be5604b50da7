// binder-vectors E23: three deprecated labels (warnings), four descriptors; nothing uses them.
package "aws" {
}

package "azure" {
  baseProviderVersion = "1.2.3"
}

package "random" {
  baseProviderName        = "terraform-provider"
  baseProviderVersion     = "0.1.0"
  baseProviderDownloadUrl = "https://example.com/terraform-provider.zip"
  parameterization {
    name    = "random"
    version = "4.5.6"
    value   = "SGVsbG8="
  }
}

package {
  baseProviderName    = "gcp"
  baseProviderVersion = "2.3.4"
}
