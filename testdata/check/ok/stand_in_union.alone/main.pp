// `main.pp` checked alone: `files` is a config of `config.pp`, a `dynamic`
// stand-in here, so `x` is a union with `dynamic` that `range` cannot
// iterate — an error the directory does not have. An error in a node that
// uses a sibling's name (directly or through other nodes of the file) is a
// warning when a file is checked alone; an undefined name stays an error.
x = files != null ? files : [{ path = "a" }]

resource "r" "pkgx:index:R" {
  b = range.value.path
  options {
    range = x
  }
}

output "port" {
  value = port
}
