a = <<EOT
x
