data = {}

resource "name" "random:index/randomString:RandomString" {
  options {
    range = data
  }
  length = range.value.something
}