resource a "nosuch:index:Thing" {}
v = a.anything
