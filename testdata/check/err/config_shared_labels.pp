// Configs and outputs that share a type label: each is checked against the
// label's type on its own (the binder binds a label's text once).
config names "list(string)" {
  default = ["a", "b"]
}

config badNames "list(string)" {
  default = [{ x = 1 }]
}

config alsoBad "list(string)" {
  default = 3
}

config settings "object({a = string, b = list(int)})" {
  default = { a = "x" }
}

# Deliberate difference: `"no"` converts to int only unsafely, so the reference is
# silent; it can never be a number, so pcl warns (`constant-never-converts`).
config moreSettings "object({a = string, b = list(int)})" {
  default = { b = ["no"] }
}

config broken "list(" {}

config alsoBroken "list(" {}

output names "list(string)" {
  value = names
}

output settingsOut "object({a = string, b = list(int)})" {
  value = settings
}

output wrong "list(string)" {
  value = settings
}
