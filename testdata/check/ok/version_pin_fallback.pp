// A pinned version the schema directories lack, where they hold others of
// the package, is a `pinned-version-missing` warning at the pin: the
// resource is checked against the default (highest) version, and the help
// names the pinned version (`get-schema pkgx@3.0.0`).
resource "r" "pkgx:index:R" {
  b = "x"
  options {
    version = "3.0.0"
  }
}

// The same for an invoke's `{ version = "…" }`.
found = invoke("pkgx:index:getF", { b = "x" }, { version = "3.0.0" })
