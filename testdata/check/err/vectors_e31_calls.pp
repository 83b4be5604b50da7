// binder-vectors E31-E35: bad method calls.
resource c "component:index:Callable" {
  value = "bar"
}

resource cs "component:index:Callable" {
  options {
    range = 2
  }
  value = "quux"
}

m = "identity"

noArgs       = call()                          # E31: 4 diagnostics
receiverOnly = call(c)                         # E32: 3
noArguments  = call(c, "identity")             # E33: 2
splatSelf    = call(cs[*], "identity", {})     # E34: receiver must be a single resource
template     = call(c, "${m}", {})             # E35: method name must be a string literal
noMethod     = call(c, "identiy", {})          # unknown method, did you mean
