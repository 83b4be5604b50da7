# hash comment
// slash comment
/* block comment */
/*
  multi-line
  block
*/
a = 1 # trailing hash
b = 2 // trailing slash
c = /* inline */ 3
d = 1 + /* c
 */ 2
e = (1 + # c
 2)
f = [
  1, # one
  2, // two
  /* three */ 3,
]
block "x" /* c */ "y" {
  # inside
}
/**/
g = 1 /* before newline */
#no space
//no space
h = "# not a comment // nor this /* nor */"
