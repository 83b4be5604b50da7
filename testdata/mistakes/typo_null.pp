# mistake: line 2: undefined-variable: a misspelt `null`
nothing = nul
