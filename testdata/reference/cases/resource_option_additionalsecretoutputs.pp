resource foo "foo:index:Foo" {
	property = "42"
	options {
		additionalSecretOutputs = [property]
	}
}
