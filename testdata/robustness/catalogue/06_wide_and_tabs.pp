name = "日本語🚀é"
	x = "日本語🚀é" + nope
