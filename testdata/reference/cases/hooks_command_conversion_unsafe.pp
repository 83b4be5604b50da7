
hook resource "foo" {
	command = [[], {}]
}
