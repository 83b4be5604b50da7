# mistake: line 3: type-not-convertible: a default of the wrong type
config ports "list(int)" {
  default = 80
}
