config "name" "string" {
}
