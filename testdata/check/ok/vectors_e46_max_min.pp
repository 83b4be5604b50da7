// binder-vectors E46-E49: max and min over ints, numbers, strings and outputs; no diagnostics.
config a "int" {}
config b "number" {}
config c "string" {}

output result46 {
  value = max(a, b)
}

output result47 {
  value = max(a, c)
}

output result48 {
  value = min(b, a)
}

resource ri "random:index/randomInteger:RandomInteger" {
  min = 0
  max = 10
}

output result49 {
  value = max(ri.result, a)
}
