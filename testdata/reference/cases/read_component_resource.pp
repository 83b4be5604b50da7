read comp "foo:index:Component" {
	id = "existing-id"
	lookup = "existing-key"
}