// binder-vectors E1-E9, E11, E18 (pcl/binder_test.go): config types.
config cidrBlock string {}                    # E1
config nullableCidr string { default = null } # E2: optional, nullable
config count int {}                           # E3
config names "list(string)" {}                # E4
config maybeNames "list(optional(string))" {  # E5: no diagnostics
  default = [null]
}
config ints "list(int)" {}     # E6
config byName "map(string)" {} # E7
config intByName "map(int)" {}
config anyByName "map(any)" {}
config secretCount int { secret = true } # E8: output(int)

output cidrBlock { # E9: outputs have their own namespace
  value = cidrBlock
}

config data "object({ lambda=object({ subnetIds=list(string) }) })" {}
output numberOfEndpoints { # E11
  value = length(data.lambda.subnetIds)
}

config foo "object({ bar=string })" { # E18: foo.bar is optional(string)
  default     = null
  description = "an optional object"
}
output fooBar {
  value = foo.bar
}
