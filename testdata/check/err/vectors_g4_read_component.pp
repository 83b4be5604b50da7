// binder-vectors G4: component resources cannot be read.
read comp "foo:index:Component" {
  id     = "existing-id"
  lookup = "existing-key"
}
