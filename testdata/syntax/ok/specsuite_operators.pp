equality "==" {
  exactly = "a" == "a"
  not     = "a" == "b"
  type_mismatch_number = "1" == 1
}
inequality "!=" {
  exactly = "a" != "a"
}
comparison "<" {
  lt = 1 < 2
  gte = 2 >= 1
}
arithmetic {
  add = 1 + 2
  add_big = 3.14159265358979323846264338327950288419716939937510582097494459 + 1
  mod_frac = 11 % 5.1
  neg = -1
}
logical_binary "&&" {
  tt = true && true
}
logical_unary "!" {
  t = !true
}
conditional {
  t = true ? "a" : "b"
}
