resource "res" "other:index:Thing" { }
type = pulumiResourceType(res)
name = pulumiResourceName(res)