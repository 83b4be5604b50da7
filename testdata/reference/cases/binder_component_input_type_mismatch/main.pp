
component myComp "./myComponent" {
    myInput = [1, 2, 3]
}
