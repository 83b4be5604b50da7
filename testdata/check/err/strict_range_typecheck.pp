// Strict: iterating a string is an error (binder-vectors E19b: exactly two cannot-iterate; E36: element of a dynamic value; compare ok/skip_range_typecheck.pp).
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
