
// basic package
package "aws" { }

// package with version
package "azure" { baseProviderVersion = "1.2.3" }

// parameterized package
package "random" {
	baseProviderName = "terraform-provider"
	baseProviderVersion = "0.1.0"
    baseProviderDownloadUrl = "https://example.com/terraform-provider.zip"
    parameterization {
 		name = "random"
        version = "4.5.6"
        value = "SGVsbG8=" // base64 encoded "Hello"
    }
}

// Unlabeled package with all fields specified
package {
	baseProviderName = "gcp"
	baseProviderVersion = "2.3.4"
}
