resource w "tiny:index:Widget" {
}

output o {
  value = nope
}
