
hook resource "foo" {
	command = ["test"]
	what = true
}
