# mistake: line 2: unclosed-tuple: a missing `]`
names = ["a", "b"
count = length(names)
