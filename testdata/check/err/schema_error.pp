// Schemas that do not decode: a file that is not JSON is an unknown package
// (with the parse error in the detail); a resource whose definition is
// malformed is a schema error at the resource.
resource b "broken:index:Thing" {
}

resource q "quirks:index:Broken" {
}

# A function whose definition is malformed.
value = invoke("badfn:index:getBroken", {})
