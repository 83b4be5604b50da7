# mistake: line 3: invalid-block-header: a missing `=`
resource w "tiny:index:Widget" {
  name "w"
}
