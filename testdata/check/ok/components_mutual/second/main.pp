config secondInput string { default = "" }
output data { value = "second" }
