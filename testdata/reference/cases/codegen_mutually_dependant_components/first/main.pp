config "firstInput" "string" { }

output "data" {
    value = firstInput
}