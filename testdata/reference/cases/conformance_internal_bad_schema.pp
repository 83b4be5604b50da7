resource "res" "bad:index:Resource" {

}