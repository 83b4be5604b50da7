
hook "foo" {
	command = ["test"]
}