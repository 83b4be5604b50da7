a {}
b { c = "foo" }
resource "x" "y" { z = 1 }
d label { e = [1, 2, 3] }
