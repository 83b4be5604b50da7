a = "%{ if b }x"
