output both {
  value = "${first.result}-${second.result}-${region}"
}
