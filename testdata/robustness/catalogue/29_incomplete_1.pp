a = 
z = nope
