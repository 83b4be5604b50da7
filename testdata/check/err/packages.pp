package "one" "two" {}

package {
  baseProviderVersion = "v1"
}

package {
  baseProviderName = "tiny"
  baseProviderVersion = "1.x"
  baseProviderDownloadUrl = "not a url"
  parameterization {
    name = ""
  }
}

package legacy {
}
