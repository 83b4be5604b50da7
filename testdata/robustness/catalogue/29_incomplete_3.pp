a = length(
z = nope
