# mistake: line 4: unknown-block-attribute: a misspelt attribute of a package block
package {
  baseProviderName    = "tiny"
  baseProviderVersoin = "1.0.0"
}
