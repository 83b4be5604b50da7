a = "s"[*]
b = [[{b = 1}]][*][*].b
c = null[*]
d = nope
