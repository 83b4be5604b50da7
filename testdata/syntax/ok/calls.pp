none = f()
one = f(1)
many = f(1, "two", [3])
trailing = f(1, 2,)
expand = f(xs...)
expand_last = f(a, b, xs...)
nested = f(g(h(1)), k())
ns = ns::fn(1)
ns_deep = provider::aws::arn_parse(x)
multi_line = f(
  1,
  2,
)
keyword_name = for(1)
objects = object({ foo = string })
