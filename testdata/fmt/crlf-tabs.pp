a = 1
bb = 2 

resource r "p:m:R" {
	x = "tab"
}
