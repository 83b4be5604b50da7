config "port" "int" {
}
