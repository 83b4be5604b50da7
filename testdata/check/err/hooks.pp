hook resource r {
  command = ["test"]
  what = true
}

hook error e {
  onDryRun = true
}

resource w "tiny:index:Widget" {
  name = "w"
  options {
    hooks = {
      onError = [r]
      beforeCreate = [e]
      badHook = [r]
      afterCreate = r
    }
  }
}

resource v "tiny:index:Widget" {
  name = "v"
  options {
    hooks = [r]
  }
}
