# mistake: line 3: undefined-variable: a misspelt local
prefix = "app"
fullName = "${prefx}-web"
