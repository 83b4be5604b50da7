output o {
  value = 2
}
