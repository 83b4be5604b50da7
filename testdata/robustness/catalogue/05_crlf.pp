a = 1
b = nope
c = <<EOT
hello
EOT
d = c
