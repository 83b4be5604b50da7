b { c = <<EOT
x
EOT
}
