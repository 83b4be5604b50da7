a = a
b = c
c = b
resource w "tiny:index:Widget" {
  name = w.name
  kind = "widget"
}
