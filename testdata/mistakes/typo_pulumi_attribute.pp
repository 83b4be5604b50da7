# mistake: line 3: unknown-block-attribute: a misspelt attribute of the pulumi block
pulumi {
  requiredVersionRang = ">=3.0.0"
}
