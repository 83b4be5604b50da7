// flags: --allow-missing-variables
// Components inherit the policy (the reference forgets to pass it on): the
// undefined name inside the component is a warning here too.
component child "./child" {
  name = "x"
}
