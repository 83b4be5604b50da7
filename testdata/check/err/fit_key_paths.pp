# Values that do not fit their schema type are explained key by key, each
# problem at its own range (pcl_expr::fit). Deliberate difference: the
# reference reports one `cannot assign expression of type X to location of
# type Y: ` at the whole value (Y the whole input union), ignores unknown keys
# below the top level, and reports a misspelt required key as missing.
resource sg "messages:index:SecurityGroup" {
  name = "web"
  ingress = [
    # A misspelt required key: one error, with did-you-mean and a fix.
    { fromPrt = 80, toPort = 80 },
    # A wrong type and an unknown key: an error and a warning.
    { fromPort = 443, toPort = [443], protcol = "tcp" },
  ]
}

# The invoke example of issue 13: two diagnostics, one at each key.
ami = invoke("messages:index:getAmi", { mostRecnt = true, owners = "x" })

# A nested list of objects inside the arguments.
ami2 = invoke("messages:index:getAmi", {
  owners  = ["self"]
  filters = [{ name = "arch", vaules = ["x86_64"] }]
})

# A builtin called with the wrong arguments shows its usage.
joined = join(",", "a")
