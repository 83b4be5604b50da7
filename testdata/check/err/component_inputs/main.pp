component c "./comp" {
  unknownInput = 1
  token = "x"
  options { protect = true }
  options {}
}
