thing = 1

resource thing "tiny:index:Widget" {
  name = "x"
}

config other string {}
other = 2
output other { value = 1 }
output other { value = 2 }
