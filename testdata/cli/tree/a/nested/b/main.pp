output o {
  value = nope
}
