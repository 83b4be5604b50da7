a = { b = c. }
