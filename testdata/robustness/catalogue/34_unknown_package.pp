resource a "nosuch:index:Thing" {}
resource b "nosuch:index:Other" {}
v = invoke("nosuch:index:fn", {})
