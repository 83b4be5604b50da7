// Trailing comments on consecutive lines align one column after the longest code.
a = 1 # one
bbb = 22    # two
c = [1,2,3] // three
/* block */ d = 4
e = 5 /* not aligned: a block comment followed by the line break */
f = 6   # comment with trailing blanks   
# a comment line   
  // an indented comment line
resource r "p:m:R" { # after the brace
  x = 1 #x
} # after the closing brace
