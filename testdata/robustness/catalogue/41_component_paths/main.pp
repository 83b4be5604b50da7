component escape "../../etc" {}
component abs "/etc" {}
component missing "./nowhere" {}
component notes "./notes" {}
component ok "./comp" {
  greeting = "hi"
}
output o {
  value = ok.said
}
