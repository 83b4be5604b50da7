resource "null" "tiny:index:Widget" {
  name = "n"
  kind = "widget"
}
for = 1
x = true.foo
null = 2
