# mistake: line 2: multiline-string: a string without its closing quote
greeting = "hello
other = 1
