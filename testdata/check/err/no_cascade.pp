// One problem, one diagnostic: checks of a call's arguments skip an
// argument that already reported an error, and a call whose argument list
// has a syntax error gets no arity or argument diagnostics. (Deliberate
// difference: the reference adds `call's receiver must be a single
// resource`, `pulumiResourceType argument must be a single resource` and
// `missing required parameter 'value'` to the errors below.)
a = call(notAResource, "method", {})
b = pulumiResourceType(notAResource)
c = length(
d = length(nope, 1)

// After a traversal step fails (`.b` of `none` is `none`, with a warning),
// the rest of the chain, through splats too, is not reported again.
// (Deliberate difference: the reference warns at `.c`, `.d` and the second
// `.c` as well.)
e = null.b.c.d
empty = []
f = empty[*].b[*].c
