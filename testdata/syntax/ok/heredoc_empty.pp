empty = <<EOT
EOT
after = <<EOT
  x
  EOT
last = 1
