// flags: --skip-resource-typecheck
# With --skip-resource-typecheck every error from binding a resource block
# is a warning, including those of its `options` block and its `range`.
resource w "tiny:index:Widget" {
  name = "w"
  options {
    protect   = 3
    dependsOn = "not a list"
    parent    = nosuchParent
    range     = nosuchRange
    bogus     = true
  }
}
