resurce "a" "b" {}
resource w "tiny:index:Widget" {
  name = "w"
  kind = "widget"
  options {
    protekt = true
  }
}
