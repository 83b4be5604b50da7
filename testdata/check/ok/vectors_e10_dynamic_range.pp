// binder-vectors E10: an untyped config as a range makes range.value dynamic.
config endpointsServiceNames {
  description = "Information about the VPC endpoints to create."
}
config vpcId int {}

resource endpoint "infra:index:Endpoint" {
  options {
    range = endpointsServiceNames
  }
  vpcId             = vpcId
  serviceName       = range.value.name
  vpcEndpointType   = range.value.type
  privateDnsEnabled = range.value.privateDns
}
