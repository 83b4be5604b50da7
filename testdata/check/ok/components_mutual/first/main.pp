config firstInput string { default = "" }
output data { value = "first" }
