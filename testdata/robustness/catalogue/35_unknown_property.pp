resource w "tiny:index:Widget" {
  nmae = "x"
  kind = "widget"
}
v = w.arnn
