a {
  b = 1 c = 2
}
d { e = 1, f = 2 }
g {
  h = "ok"
}
i = 1 j = 2
k = 3
