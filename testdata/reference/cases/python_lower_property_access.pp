zones = invoke("infra:index:getZones", {})

resource vpcSubnet "infra:index:Subnet" {
	options { range = zones.names }

	cidrBlock = "10.100.${range.key}.0/24"
	availabilityZone = range.value
	vpcId = 1
}

resource rta "infra:index:RouteTableAssociation" {
	options { range = zones.names }

	subnetId = vpcSubnet[range.key].id
	routeTableId = 1
}
