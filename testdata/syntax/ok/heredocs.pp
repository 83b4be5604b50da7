plain = <<EOT
hello
world
EOT
flush = <<-EOT
    indented
      more
    back
    EOT
interp = <<EOT
Hello, ${name}!
%{ if a }yes%{ endif }
EOT
indented_marker = <<EOT
  hello
  EOT
lowercase = <<eot
x
eot
dashed = <<END-OF-TEXT
x
END-OF-TEXT
literal_stuff = <<EOT
# not a comment
// not either
"quotes" and \n backslashes
$${escaped} %%{escaped} $$z
EOT
in_parens = (<<EOT
x
EOT
+ "y")
in_tuple = [<<EOT
x
EOT
, "y"]
in_call = f(<<EOT
x
EOT
, 1)
after = 1
