derived = "${base}-a"

resource w "tiny:index:Widget" {
  name = derived
}
