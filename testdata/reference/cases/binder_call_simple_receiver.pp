
resource "c" "component:index:Callable" {
	value = "bar"
}

cRes1 = call(c, "identity", {})
cRes2 = call(c, "prefixed", { prefix = "foo-" })
