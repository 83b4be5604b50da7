result = invoke("multiarg:index:funcWithMultiArgs", "hello", "world", { version = "1.2.3" }, "extra")
