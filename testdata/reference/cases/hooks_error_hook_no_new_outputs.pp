
hook error "foo" {
	command = ["test", args.newOutputs.first]
}
