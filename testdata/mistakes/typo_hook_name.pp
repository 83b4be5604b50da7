# mistake: line 9: unknown-hook-name: a misspelt lifecycle event in `hooks`
hook resource notify {
  command = ["echo", "hi"]
}
resource w "tiny:index:Widget" {
  name = "w"
  options {
    hooks = {
      beforCreate = [notify]
    }
  }
}
