result = invoke("multiarg:index:funcWithMultiArgs", "hello")
