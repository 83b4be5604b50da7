t1 = [for v in xs : v]
t2 = [for i, v in xs : v * i]
t3 = [for v in xs : v if v > 0]
t4 = [for i, v in xs : "${i}=${v}" if i != 0]
o1 = {for k, v in m : k => v}
o2 = {for v in xs : v.name => v}
o3 = {for v in xs : v.key => v.value...}
o4 = {for k, v in m : k => v... if v != null}
o5 = {for k, v in m : upper(k) => [for x in v : x]}
multi = [
  for v in xs :
  v
  if v
]
nested_in_call = length([for v in xs : v])
