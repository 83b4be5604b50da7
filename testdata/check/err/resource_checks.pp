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
