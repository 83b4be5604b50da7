a = <<EOT
  hello
  EOT
