a = "%{ if a }x"
