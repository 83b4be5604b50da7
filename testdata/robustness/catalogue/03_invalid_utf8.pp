a = "ÿþ"
b = undefinedName
