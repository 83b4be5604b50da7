config "secondInput" "string" { }

output "data" {
    value = secondInput
}