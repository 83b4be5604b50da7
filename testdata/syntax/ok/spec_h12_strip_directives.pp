a = <<EOT
hello
%{~ if true ~}
world
%{~ endif ~}
!
EOT
