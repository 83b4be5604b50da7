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
