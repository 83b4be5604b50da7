
resource target "foo:index:Foo" {
	property = "t"
}
resource property "foo:index:Foo" {
	property = "p"
	options {
		dependsOn     = [target]
		ignoreChanges = [property]
	}
}