resource foo "foo:index:Foo" {
	property = "42"
	options {
		import = "abc123"
	}
}
