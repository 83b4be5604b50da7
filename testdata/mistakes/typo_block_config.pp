# mistake: line 2: unknown-block-type: a misspelt `config` keyword (the name is used below)
confg region string {
  default = "eu"
}
resource w "tiny:index:Widget" {
  name = region
}
