
hook error "foo" {
	command = ["test"]
	onDryRun = true
	ignoreErrors = true
}