resource foo "foo:index:Foo" {
	spec = {
		"template" = {
			name = "first"
		}
	}
}