resource "tiny:index:Widget" {
  name = "x"
}

read only {
}

config {
}

config a b c {
}

output {
}

output x y z {
  value = 1
}

component {
}

hook "h" {
  command = []
}

hook banana h2 {
  command = []
}

pulumi extra {
}

# Deliberate difference: the reference ignores an unknown block type silently;
# pcl warns (`unknown-block-type`).
unknownBlock foo {
}
