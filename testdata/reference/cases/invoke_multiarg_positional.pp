result = invoke("multiarg:index:funcWithMultiArgs", "hello", "world")
