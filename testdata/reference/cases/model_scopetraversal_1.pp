config c "list(bool)" {
}
x = c.0
