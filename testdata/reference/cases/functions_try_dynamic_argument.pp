
	config "obj" {}
	value = try(1, obj)
	