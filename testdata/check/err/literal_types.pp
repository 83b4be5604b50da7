// Types of literals print as the PCL literals they are in every message,
// never in Go notation (`cty.NumberIntVal(1)`, `cty.True`).
config c "bool" {}
xs = c ? [{ a = 1, b = "hello" }] : "s"
ys = [for v in xs : v]
zs = [for v in true : v]
ns = [for v in 2.5 : v]
