ok1 = 1
bad1 = 1 +
ok2 = "fine"
bad2 = [1 2]
resource r "t" {
  ok3 = 3
  bad3 4
  ok4 = 4
}
bad4 = {a = 1 b = 2}
ok5 = f(1)
