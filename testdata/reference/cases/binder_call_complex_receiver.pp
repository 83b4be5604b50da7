
resource "c" "component:index:Callable" {
	value = "bar"
}

x = { c = c }

cRes1 = call(x.c, "identity", {})
cRes2 = call(x.c, "prefixed", { prefix = "foo-" })

resource "cs" "component:index:Callable" {
	options { range = 2 }
	value = "quux"
}

csRes1 = call(cs[0], "identity", {})
csRes2 = call(cs[1], "prefixed", { prefix = "baz-" })
