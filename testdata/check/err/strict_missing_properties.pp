// Strict: a missing required input and an unknown output property are errors (compare ok/allow_missing_properties.pp).
resource r "tiny:index:Widget" {
  settings = {
    ratio = 0.5
  }
}

unknownOutput = invoke("tiny:index:getWidget", { name = "w" }).nope
