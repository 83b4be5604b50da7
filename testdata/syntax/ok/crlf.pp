a = 1
b = "x"
# c
// d
blk "l" {
  e = [
    1,
  ]
}
h = <<EOT
hello
  world
EOT
