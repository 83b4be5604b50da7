
hook resource "foo" {
	command = [true, 44]
}
