// A package with no schema at all, pinned by a `version` option: the
// unknown-package help names the pinned version (`get-schema
// zzzcloud@4.38.0`), not the bare package.
resource "r" "zzzcloud:index:Bucket" {
    options {
        version = "4.38.0"
    }
}
