// binder-vectors I: multi-argument functions are invoked with positional arguments.
twoArgs     = invoke("multiarg:index:funcWithMultiArgs", "hello", "world")
oneArg      = invoke("multiarg:index:funcWithMultiArgs", "hello")
withOptions = invoke("multiarg:index:funcWithMultiArgs", "hello", "world", { version = "1.2.3" })
nullSecond  = invoke("multiarg:index:funcWithMultiArgs", "hello", null, { version = "1.2.3" })
