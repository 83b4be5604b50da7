read foo "foo:index:Foo" {
	id = "42"
	options {
		protect = true
	}
}
