output o {
  value = built
}
