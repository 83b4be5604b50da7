
hook resource "foo" {
	command = ["test"]
	onDryRun = args.id == "foo"
}
