// binder-vectors I: the object form is rejected, and a fifth argument is one too many.
objectForm = invoke("multiarg:index:funcWithMultiArgs", { a = "hello", b = "world" })
tooMany    = invoke("multiarg:index:funcWithMultiArgs", "hello", "world", { version = "1.2.3" }, "extra")
