// binder-vectors H: every hook diagnostic, in one program. Deliberate difference:
// `args` has seven members, so the unknown property names only `newOutputs`; the
// reference lists them all (`among [id name newInputs oldInputs oldOutputs type urn]`).
hook error "noNewOutputs" {
	command = ["test", args.newOutputs.first]
}

hook resource "notStrings" {
	command = [[], {}]
}

hook resource "argsOnlyInCommand" {
	command = ["test"]
	onDryRun = args.id == "foo"
}

hook resource "what" {
	command = ["test"]
	what = true
}

hook "twoLabelsNeeded" {
	command = ["test"]
}

hook banana "badKind" {
	command = ["test"]
}

hook error "resourceOnly" {
	command = ["test"]
	onDryRun = true
	ignoreErrors = true
}

resource "wrongKinds" "infra:index:Vpc" {
  options {
	hooks = {
		onError = [what]
		beforeCreate = [noNewOutputs]
		badHook = [what]
	}
  }
}

resource "notAnObject" "infra:index:Vpc" {
  options {
	hooks = [what]
  }
}

resource "notAList" "infra:index:Vpc" {
  options {
	hooks = {
		beforeCreate = what
	}
  }
}
