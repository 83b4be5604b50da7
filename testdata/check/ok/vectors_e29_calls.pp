// binder-vectors E29, E30: method calls on a component resource.
resource c "component:index:Callable" {
  value = "bar"
}

cRes1 = call(c, "identity", {})
cRes2 = call(c, "prefixed", { prefix = "foo-" })

x     = { c = c }
cRes3 = call(x.c, "identity", {})
cRes4 = call(x.c, "prefixed", { prefix = "foo-" })

resource cs "component:index:Callable" {
  options {
    range = 2
  }
  value = "quux"
}

cRes5 = call(cs[0], "identity", {})
cRes6 = call(cs[1], "prefixed", { prefix = "baz-" })
