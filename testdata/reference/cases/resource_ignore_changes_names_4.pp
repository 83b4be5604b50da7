
target = "t"
resource bar "foo:index:Bar" {
	ignoreChanges = target
}