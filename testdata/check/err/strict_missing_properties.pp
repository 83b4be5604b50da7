// Strict: a missing required input, a missing nested property and an unknown property of a
// function result are errors (compare ok/allow_missing_properties.pp). Deliberate difference:
// the nested property is named as missing; the reference reports an empty summary, and only
// when the property is also an output.
resource r "tiny:index:Widget" {
  settings = {
    ratio = 0.5
  }
}

unknownOutput = invoke("tiny:index:getWidget", { name = "w" }).nope
