# mistake: line 3: type-not-convertible: an output value of the wrong type
output n number {
  value = [1]
}
