a = "plain ${ name } and %{ if x }yes%{ else }no%{ endif }   "
b = "${ {a = 1} }"
c = "${x}${y}"
d = "  spaces  kept  "
e = <<EOT
  heredoc   text ${ upper( name ) }
    is kept   
EOT
f = <<-EOT
    indented ${x}
    EOT
g = [<<EOT
in a tuple
EOT
, "next"]
h = "${ a }%{ for x in xs }${ x }%{ endfor }"
