component app "./app" {
  greeting = "hi"
}

component apps "./app" {
  greeting = "hi ${range.value}"
  options { range = 2 }
}

component sourceless {
  token    = "tiny:index:Gadget"
  anything = 1
}

output message { value = app.message }
