
resource "c" "component:index:Callable" {
	value = "bar"
}

cRes1 = call()
