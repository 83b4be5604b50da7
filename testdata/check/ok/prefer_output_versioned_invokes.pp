// flags: --prefer-output-versioned-invokes
// Every invoke with a result type is an output.
resource w "tiny:index:Widget" {
  name = "w"
}

plain  = invoke("tiny:index:getWidget", { name = "w" })
lifted = invoke("tiny:index:getWidget", { name = w.name })
count  = invoke("tiny:index:getCount", {})
