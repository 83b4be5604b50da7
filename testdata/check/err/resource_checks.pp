// Resource checks. Deliberate difference: `count` is an input only, and the reference
// reports mismatches only on properties that are also outputs (binder.md §5.6.4); pcl
// reports every mismatch, at the offending element, with the property path.
resource w "tiny:index:Widget" {
  nmae  = "typo"
  count = [1, 2]
  settings = {
    enabled = [true]
  }
  options {
    protected = true
    ignoreChanges = ["name"]
  }
  options {
  }
  nested {
  }
}

resource u "tiny:index:Wigdet" {
}

resource m "bad token" {
}

read p "pulumi:providers:tiny" {
  id = "x"
}

read g "tiny:index:Gadget" {
  id = "x"
}
