// Without prefer-output-versioned-invokes a plain-argument invoke is a promise, an output argument makes it an output (compare ok/prefer_output_versioned_invokes.pp).
resource w "tiny:index:Widget" {
  name = "w"
}

plain  = invoke("tiny:index:getWidget", { name = "w" })
lifted = invoke("tiny:index:getWidget", { name = w.name })
count  = invoke("tiny:index:getCount", {})
