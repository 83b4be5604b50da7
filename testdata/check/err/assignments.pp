// Values assigned to declared types: config defaults, typed outputs, options.
// The message names the declaration and the first mismatching path and says
// what was expected and found in plain types, at the offending element.
// (Deliberate difference: the reference prints `cannot assign expression of
// type X to location of type Y: ` with Y the whole `T | output(T)` union.)
config ports "list(int)" {
  default = 80
}

config settings "object({ tags = map(string) })" {
  default = {
    tags = {
      team = ["platform"]
    }
  }
}

config pair "tuple([string, int])" {
  default = ["a", 1, 2]
}

output count "int" {
  value = [1]
}

resource w "tiny:index:Widget" {
  name = "w"
  options {
    ignoreChanges = [tags, "name"]
  }
}
