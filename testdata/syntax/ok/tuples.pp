empty = []
one = [1]
many = [1, "two", true, null, a.b]
trailing = [1, 2,]
multi_line = [
  1,
  2,
  3,
]
nested = [[1, 2], [3, [4, []]]]
