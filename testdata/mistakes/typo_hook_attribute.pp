# mistake: line 4: unknown-hook-attribute: a misspelt hook attribute
hook resource notify {
  command = ["echo", "hi"]
  onDryRn = true
}
