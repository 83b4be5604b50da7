
hook banana "foo" {
	command = ["test"]
}