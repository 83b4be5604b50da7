x = 
y = (
