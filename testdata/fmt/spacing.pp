a = 1+2*3-4/5%6
b = -1
c = x - -1
d = ! true && ( x||y )
e = x==y ? a : b
f = x !=y
g = [for  k , v  in  xs : v  if v>0]
h = {for k , v in m: k=> v...}
i = [for x in [1, 2]: x]
j = list[0].attr[*].name
k = obj.*.id
l = f( a , b ... )
m = x <= y||x>=y
n = { }
o = [ ]
p = a.b .c
q = (-x)
r = [-1, -2]
s = y-1
t = !x
u = var[ 0 ]
