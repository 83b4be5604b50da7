// A failed traversal of a union is one error. When exactly one member
// fails, its error is the reason (here `unknown property`); when several
// fail, the union's `cannot traverse value of type union(…)` stands for them
// (pcl_types' `union_failure_is_one_error`). (Deliberate difference: the
// reference reports every failing member's error and then the union's, at
// the same place.)
config maybe "object({b = string})" {
  default = null
}

one = maybe.nope
two = maybe.b

// An optional value that cannot be traversed: one error, the member's.
config maybeName "string" {
  default = null
}
three = maybeName.foo

// An optional list indexed: the result is optional, no diagnostic (as the
// reference).
config maybeList "list(string)" {
  default = null
}
four = maybeList[0]
