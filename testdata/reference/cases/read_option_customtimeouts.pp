read foo "foo:index:Foo" {
	id = "42"
	options {
		customTimeouts = { create = "5m" }
	}
}
