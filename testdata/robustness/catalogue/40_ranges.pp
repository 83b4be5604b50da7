resource w "tiny:index:Widget" {
  name = "w"
  kind = "widget"
  options {
    range = "str"
  }
}
resource v "tiny:index:Widget" {
  name = range.value.x
  kind = "widget"
  options {
    range = {}
  }
}
z = null.foo
