
package {
	baseProviderName = "parameterized"
	baseProviderVersion = "1.2.3"
	parameterization {
		name = "subpackage"
		version = "3.0.0"
		value = "SGVsbG8="
	}
}
