# mistake: line 2: block-labels: a resource without its name label
resource "tiny:index:Widget" {
  name = "w"
}
