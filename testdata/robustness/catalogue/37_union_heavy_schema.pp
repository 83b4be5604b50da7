resource c "wide:index:Canvas" {
  shape = { kind = "k", p7 = 1 }
  shapes = [{ kind = "k", p1 = 1 }, { kind = "k", p29 = 2 }, { kind = "k" }]
  choice = "e2v3"
}
resource d "wide:index:Canvas" {
  shape = { kind = "k", p3 = 1 }
  choice = "nope"
}
