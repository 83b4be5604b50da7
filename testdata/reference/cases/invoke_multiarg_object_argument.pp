result = invoke("multiarg:index:funcWithMultiArgs", { a = "hello", b = "world" })
