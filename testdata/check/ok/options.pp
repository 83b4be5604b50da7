hook resource before { command = ["true"] }
hook error failed { command = ["false"] }

resource parent "tiny:index:Widget" {
  name = "parent"
}

resource child "tiny:index:Widget" {
  name = "child"
  options {
    parent                  = parent
    provider                = null
    providers               = []
    dependsOn               = [parent]
    replaceWith             = [parent]
    deletedWith             = parent
    protect                 = false
    retainOnDelete          = true
    deleteBeforeReplace     = true
    ignoreChanges           = [tags, name]
    hideDiffs               = [tags]
    replaceOnChanges        = [name]
    additionalSecretOutputs = [password]
    version                 = "1.0.0"
    pluginDownloadURL       = "https://example.com"
    import                  = "child-id"
    customTimeouts          = { create = "5m" }
    aliases                 = ["old", { name = "older" }]
    replacementTrigger      = "x"
    envVarMappings          = { A = "B" }
    hooks = {
      beforeCreate = [before]
      onError      = [failed]
    }
  }
}
