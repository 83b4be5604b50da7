
config "vpcId" "string" {
  description = "The ID of the VPC"
}

resource "ptfeService" "infra:index:Endpoint" {
  __logicalName     = "ptfe_service"
  vpcId             = vpcId
  vpcEndpointType   = "Interface"
  privateDnsEnabled = false
}

resource "ptfeServiceRecord" "infra:index:Record" {
  __logicalName = "ptfe_service"
  zoneId        = "example_zone_id"
  name          = "example"
  type          = "CNAME"
  ttl           = "300"
  records       = [ptfeService.dnsEntries[0]["dns_name"]]
}
	