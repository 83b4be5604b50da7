// binder-vectors E13: provider resources cannot be read.
read provider "pulumi:providers:random" {
  id = "provider-id"
}
