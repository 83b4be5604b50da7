settings = { enabled = true }

output o {
  value = settings.Enabled
}
