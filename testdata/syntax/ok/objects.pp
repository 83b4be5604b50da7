empty = {}
colon = { a: 1, b: 2 }
equals = { a = 1, b = 2 }
newlines = {
  a = 1
  b = 2

  c = 3
}
mixed = {
  a = 1,
  b = 2
}
trailing = { a = 1, }
quoted = { "a b" = 1, "c-d": 2 }
template_key = { "${k}" = v, "x-${y}" = 2 }
paren_key = { (a) = 1, (a.b) = 2, (f(x)) = 3 }
expr_key = { a.b = 1 }
number_key = { 1 = "one", 2.5 = "two and a half" }
keyword_keys = { true = 1, null = 2, for = 3, if = 4 }
nested = { a = { b = { c = [{ d = 1 }] } } }
braces_counted = "${ {a = 1}.a }"
