a = "\q"
b = "\u12"
c = "\UFFFFFFFF"
d = "\uD800"
