add = a + b
sub = a - b
mul = a * b
div = a / b
mod = a % b
eq = a == b
ne = a != b
lt = a < b
le = a <= b
gt = a > b
ge = a >= b
and = a && b
or = a || b
not = !a
neg = -a
neg_lit = -1
neg_space = - 1
double_not = !!a
double_neg = --a
prec_mul_add = a + b * c - d / e % f
prec_cmp = a + 1 < b * 2
prec_eq = a < b == c > d
prec_and_or = a || b && c || d
prec_all = !a || -b * c + d >= e && f != g
left_assoc = a - b - c
left_assoc_cmp = a < b < c
unary_postfix = -a.b[0]
unary_eq = !a == b
parens = (a + b) * (c - d)
nested_parens = ((((a))))
mod_no_space = 9%8
dash_ident = a-1
