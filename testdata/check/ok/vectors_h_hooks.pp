// binder-vectors H (binder_hooks_test.go): hooks that bind cleanly.
hook resource "foo" {
  command = ["test", args.urn, args.id, args.name, args.type, args.newInputs.first,
  args.oldInputs.second, args.newOutputs.third, args.oldOutputs.forth]
}

hook error "bar" {
  command = ["test", args.urn, args.id, args.name, args.type, args.newInputs.first, args.oldInputs.second, args.oldOutputs.third]
}

hook resource "converts" {
  command = [true, 44]
}

resource "example" "infra:index:Vpc" {
  options {
    hooks = {
      beforeCreate = [foo]
      onError      = [bar]
    }
  }
}
