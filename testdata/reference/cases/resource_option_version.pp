resource foo "foo:index:Foo" {
	property = "42"
	options {
		version = "1.2.3"
	}
}
