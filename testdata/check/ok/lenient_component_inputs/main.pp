// flags: --lenient
// With `--lenient` (SkipResourceTypechecking) a component input that does
// not convert to the component's config type is a warning, as it is for a
// resource input: the reference demotes the component input conversion
// check the same way.
component "c" "./c" {
  cfg = {
    inner = {
      fooBar = "x"
    }
  }
  port = "eighty"
}
