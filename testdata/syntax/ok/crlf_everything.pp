# crlf comment
// another
/* block
 */
a = "x ${y} %{ if z }w%{ endif }"
b = <<-EOT
    line1
      line2
    EOT
c = [for v in xs : v if v]
d = {
  e = 1
  f = 2
}
blk lbl "q" {
  g = a.*.b
}
