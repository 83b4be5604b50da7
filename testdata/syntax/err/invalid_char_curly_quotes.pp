a = “x”
