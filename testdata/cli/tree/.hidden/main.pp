output o {
  value = hidden
}
