
hook resource "foo" {
	command = ["test"]
}

resource "example" "infra:index:Vpc" {
  options {
	hooks = {
		onError = [foo]
	}
  }
}