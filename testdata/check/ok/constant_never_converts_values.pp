// Literals that convert to their destination only unsafely and never can
// are `constant-never-converts` warnings (pcl only; the reference accepts
// the unsafe conversion and fails at run time): resource inputs, invoke
// arguments, component inputs (see lenient_component_inputs) and builtin
// arguments, at any depth. A constant that might convert is silent
// (`"16"` to int, `"true"` or `1` to bool).
resource "w" "tiny:index:Widget" {
  name   = "w"
  kind   = "widget"
  count  = true
  legacy = "yes"
  settings = {
    enabled = "maybe"
    ratio   = "half"
  }
}

resource "quiet" "tiny:index:Widget" {
  name   = "q"
  kind   = "widget"
  count  = "16"
  legacy = 1
  settings = {
    enabled = "true"
    ratio   = "0.5"
  }
}

found = invoke("tiny:index:getWidget", { name = "w", settings = { enabled = 2 } })

picked = element(["a", "b"], "first")

steps = range("3")
