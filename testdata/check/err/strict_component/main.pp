// Strict version of ok/lenient_component: the undefined name inside the component is an error.
component child "./child" {
  name = "x"
}
