config size int {
  default = 2
}

output doubled {
  value = size * 2
}
