// `files` is a config of another file. Checked alone (tests/alone.rs),
// `files` is a `dynamic` stand-in and `x` a union with `dynamic` that
// `range` cannot iterate: an error only the stand-in makes, so in a file
// checked alone an error in a node that uses a sibling's name is a warning.
x = files != null ? files : [{ path = "a" }]

resource "r" "pkgx:index:R" {
  b = range.value.path
  options {
    range = x
  }
}
