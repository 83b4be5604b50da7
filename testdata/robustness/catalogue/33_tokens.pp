resource r "notatoken" {}
resource s "a:b:c:d" {}
resource t "" {}
name = "tiny:index:getCount"
v = invoke(name, {})
