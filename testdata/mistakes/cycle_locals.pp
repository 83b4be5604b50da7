# mistake: line 2: circular-reference: two locals that refer to each other
a = b
b = a
