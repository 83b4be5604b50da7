component example "./comp" {
  input = example.data
}
