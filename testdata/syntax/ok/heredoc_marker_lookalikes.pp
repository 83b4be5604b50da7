not_a_marker = <<EOT
EOTX
 EOT x
${x}EOT
EOT
after = 1
