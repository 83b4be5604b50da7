resource foo "foo:index:Foo" {
	property = "42"
	options {
		deletedWith = "abc123"
	}
}
