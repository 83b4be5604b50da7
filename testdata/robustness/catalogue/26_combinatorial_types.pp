config c "map(object({a = map(object({b = map(object({c = map(object({d = map(object({e = map(object({f = map(object({g = map(object({h = string}))}))}))}))}))}))}))}))" {}
output o {
  value = c.k.a.k.b.k.c.k.d.k.e.k.f.k.g.k.h
}
output bad {
  value = c.k.a.k.nope
}
