config input string {}
output data { value = input }
