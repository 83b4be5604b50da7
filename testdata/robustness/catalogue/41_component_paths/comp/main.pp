config greeting string {}
output said {
  value = greeting
}
