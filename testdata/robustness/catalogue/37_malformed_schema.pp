resource r "broken:index:Res" {
  a = "x"
}
