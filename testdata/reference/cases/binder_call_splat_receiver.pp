
resource "cs" "component:index:Callable" {
	options { range = 2 }
	value = "bar"
}

cRes1 = call(cs[*], "identity", {})
