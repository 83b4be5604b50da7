// flags: --lenient
resource a "nosuch:index:Thing" {
  first = "hello"
}

resource b "nosuch:index:Other" {
  second = a.anything
}

value = invoke("nosuch:index:getThing", {})
