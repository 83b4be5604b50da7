
resource property "foo:index:Foo" {
	property = "p"
	options {
		ignoreChanges           = [property]
		hideDiffs               = [property]
		replaceOnChanges        = [property]
		additionalSecretOutputs = [property]
	}
}