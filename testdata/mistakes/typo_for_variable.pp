# mistake: line 3: undefined-variable: a misspelt for-expression variable
names = ["a", "b"]
upper = [for item in names : itme]
