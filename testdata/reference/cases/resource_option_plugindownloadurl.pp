resource foo "foo:index:Foo" {
	property = "42"
	options {
		pluginDownloadURL = "https://example.com/whatever"
	}
}
