
resource property "foo:index:Foo" {
	property = "s"
}
resource other "foo:index:Foo" {
	property = "p"
	options {
		ignoreChanges = [property]
	}
}