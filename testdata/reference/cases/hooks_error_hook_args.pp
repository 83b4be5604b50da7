
hook error "foo" {
	command = ["test", args.urn, args.id, args.name, args.type, args.newInputs.first,
		args.oldInputs.second, args.oldOutputs.third]
}
