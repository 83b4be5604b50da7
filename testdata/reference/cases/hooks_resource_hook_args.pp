
hook resource "foo" {
	command = ["test", args.urn, args.id, args.name, args.type, args.newInputs.first,
		args.oldInputs.second, args.newOutputs.third, args.oldOutputs.forth]
}
