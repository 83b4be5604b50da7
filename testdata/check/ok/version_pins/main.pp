// A `version` resource or invoke option pins the schema version the block
// binds against (the newest is the default): `a` is an input of pkgx 1.0.0
// only, `b` of pkgx 2.0.0 only. Two resources pinning two versions of one
// package each bind against their own; the packages line lists both.
resource "old" "pkgx:index:R" {
  a = "x"
  options {
    version = "1.0.0"
  }
}

resource "new" "pkgx:index:R" {
  b = "y"
  options {
    version = "2.0.0"
  }
}

resource "latest" "pkgx:index:R" {
  b = "z"
}

oldF = invoke("pkgx:index:getF", { a = "x" }, { version = "1.0.0" })
newF = invoke("pkgx:index:getF", { b = "y" })

output "olds" {
  value = [old.a, oldF.a]
}
