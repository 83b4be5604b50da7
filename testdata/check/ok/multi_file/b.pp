base = "b"
