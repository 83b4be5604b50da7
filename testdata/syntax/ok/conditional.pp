simple = a ? b : c
nested_false = a ? b : c ? d : e
nested_true = a ? (b ? c : d) : e
with_ops = x > 1 && y ? "big" : "small"
in_parens = (cond
  ? yes
  : no)
