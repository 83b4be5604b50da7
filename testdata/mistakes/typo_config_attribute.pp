# mistake: line 3: unknown-block-attribute: a misspelt `default` in a config
config region string {
  defualt = "eu"
}
