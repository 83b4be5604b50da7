resource c "wide:index:Canvas" {
  shape = { kind = "x", nested = { prop000 = "a", prop001 = "notanint", prop002 = 3 } }
  big = { prop000 = 1, prop001 = [], prop199 = {} }
}
