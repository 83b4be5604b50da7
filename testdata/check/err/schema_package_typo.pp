// An unknown package one edit from a package of the schema directories is
// suggested, with a fix that replaces the package name in the token (in a
// provider token too). The reference says only `unknown package`.
resource w "tinyy:index:Widget" {
  name = "w"
}

resource p "pulumi:providers:tin" {
}
