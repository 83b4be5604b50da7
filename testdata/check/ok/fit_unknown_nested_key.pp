# An unknown key inside a nested object whose schema type is known is a
# warning (the reference ignores it): the value still converts.
resource sg "messages:index:SecurityGroup" {
  name    = "web"
  ingress = [{ fromPort = 80, toPort = 80, protocl = "tcp" }]
}

ami = invoke("messages:index:getAmi", { owners = ["self"], mostRecnt = true })

# The same for an option's object.
resource sg2 "messages:index:SecurityGroup" {
  name = "web2"
  options {
    customTimeouts = { creat = "5m" }
  }
}
