attr = a.b.c
index_num = a[0]
index_str = a["k"]
index_expr = a[b + 1]
index_neg = a[-1]
legacy = a.0.b
legacy_end = a.0
legacy_mid = foo.bar.4.baz
mixed = a["k"].b[c].d
call_index = sort(data.first.ref.attr)[count.index]
lit_index = [1, 2][0]
obj_attr = {a = 1}.a
paren_attr = (a).b
template_index = "${var.public_subnets[count.index]}"
