# mistake: line 6: undefined-variable: a misspelt config name
config siteName string {
  default = "site"
}
resource w "tiny:index:Widget" {
  name = siteNme
}
