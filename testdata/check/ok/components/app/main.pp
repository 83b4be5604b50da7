config greeting string {}
config optionalThing string { default = null }

component inner "../lib" {
  value = greeting
}

output message { value = inner.doubled }
