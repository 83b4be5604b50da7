result = invoke("multiarg:index:funcWithMultiArgs", "hello", null, { version = "1.2.3" })
