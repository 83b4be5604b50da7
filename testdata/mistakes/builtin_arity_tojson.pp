# mistake: line 2: builtin-arity: toJSON called without its argument
j = toJSON()
