resource w "tiny:index:Widget" {
  name = "w"
  kind = "widget"
}
a = w.arn
b = true ? a : try(x, null)
