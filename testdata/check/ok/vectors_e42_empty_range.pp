// flags: --lenient
// binder-vectors E42: exactly one diagnostic, a warning: range.value of an empty object is none.
data = {}

resource name "random:index/randomString:RandomString" {
  options {
    range = data
  }
  length = range.value.something
}
