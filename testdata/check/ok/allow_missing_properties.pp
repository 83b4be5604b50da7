// flags: --allow-missing-properties
// Every schema property is optional; unknown properties of schema objects are warnings (a resource's own output object stays strict, as in the reference).
resource r "tiny:index:Widget" {
  settings = {
    ratio = 0.5
  }
}

unknownOutput = invoke("tiny:index:getWidget", { name = "w" }).nope
