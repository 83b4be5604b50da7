// Invalid values for every resource option that has a type (binder.md §5.8). `parent`,
// `provider`, `deletedWith` and `replacementTrigger` take any value, so they have no invalid one.
config tags "set(string)" {}
hook resource before {
  command = ["true"]
}

resource other "tiny:index:Widget" {
  name = "other"
}

resource w "tiny:index:Widget" {
  name = "w"
  options {
    aliases                 = [1, [2]]
    range                   = {}
    providers               = "p"
    dependsOn               = other
    replaceWith             = "x"
    protect                 = [true]
    retainOnDelete          = {}
    deleteBeforeReplace     = ["no"]
    ignoreChanges           = ["name"]
    hideDiffs               = [nmae]
    replaceOnChanges        = name
    additionalSecretOutputs = [password, 1]
    version                 = [1]
    pluginDownloadURL       = {}
    import                  = ["id"]
    customTimeouts          = { create = ["5m"] }
    envVarMappings          = ["A"]
    hooks                   = { afterCreate = "before" }
    retain                  = true
    provder                 = null
  }
}

resource rangedString "tiny:index:Widget" {
  name = "s"
  options {
    range = "abc"
  }
}

resource rangedSet "tiny:index:Widget" {
  name = "s"
  options {
    range = tags
  }
}
