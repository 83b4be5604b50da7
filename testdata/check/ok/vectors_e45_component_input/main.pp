// binder-vectors E45: a string converts to a number input.
component myComp "./myComponent" {
  myInput = "42.5"
}
