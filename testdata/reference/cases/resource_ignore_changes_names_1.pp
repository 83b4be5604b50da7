
resource property "foo:index:Foo" {
	property = "p"
	options {
		ignoreChanges = [property]
	}
}