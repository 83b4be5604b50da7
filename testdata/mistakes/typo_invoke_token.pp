# mistake: line 2: unknown-function: a misspelt invoke token
found = invoke("tiny:index:getWidgt", { name = "w" })
