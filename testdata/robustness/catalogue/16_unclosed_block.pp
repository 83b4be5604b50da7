x = 1
resource "r" "tiny:index:Widget" {
  name = "w"
  kind = "widget"
