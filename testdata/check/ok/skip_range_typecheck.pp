// flags: --skip-range-typecheck
// cannot-iterate is a warning and element() accepts a non-list (binder-vectors E19, E36b).
config inputRange string {}
config data {}

data2 = [for x in inputRange : x]
first = element(data, 0)

resource pet "tiny:index:Widget" {
  name = "pet"
  options {
    range = inputRange
  }
}
