resource {}
resource "r1" {}
read "r2" {}
output {}
config "c1" "string" "extra" {}
component {}
component "c2" {}
hook "resource" {}
pulumi "p" {}
package {}
config {}
output "o1" "string" "extra" {
  value = "v"
}
resource "r3" "tiny:index:Widget" "extra" {
  name = "w"
  kind = "widget"
}
uses = [r1, r2, c1, r3]
