a = <<EOT
${"x" ~}

b
EOT
