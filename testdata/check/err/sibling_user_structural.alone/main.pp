// `main.pp` checked alone: the resource uses `name`, a config of
// `config.pp`, so its type errors would be warnings here (they may follow
// from the `dynamic` stand-in), but what does not follow from types stays
// an error: the attribute `c` that pkgx:index:R does not have, the
// undefined `nowhere`.
resource "r" "pkgx:index:R" {
    b = "${name}-${nowhere}"
    c = "x"
}
