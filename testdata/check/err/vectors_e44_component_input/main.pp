// binder-vectors E44. Deliberate difference: the reference reports an empty summary with the detail
// `Cannot assign value (1, 2, 3) to attribute of type "number | output(number)" for component "myComp"`.
component myComp "./myComponent" {
  myInput = [1, 2, 3]
}
