
config "createVpc" "bool" { default = false }
config "subnets" "list(string)" { default = [] }
config "prefixes" "list(string)" { default = [] }

lenPublicSubnets = invoke("std:index:max", {
  input = [
    length(subnets),
    length(prefixes)
  ]
})

resource "defaultVpc" "infra:index:Vpc" {
  options { range = createVpc ? lenPublicSubnets.result : 0 }
  cidrBlock = "10.0.0.1/16"
}
