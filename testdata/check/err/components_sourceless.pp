// A component without a source must name its type token.
component noToken {
  value = 1
}

component withToken {
  token = "tiny:index:Gadget"
}
