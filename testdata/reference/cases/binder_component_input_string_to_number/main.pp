
component myComp "./myComponent" {
    myInput = "42.5"
}
