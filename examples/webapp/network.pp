// The web tier: a security group and a few instances behind it.

region = invoke("aws:index/getRegion:getRegion", {})

# The newest Amazon Linux image.
ami = invoke("aws:ec2/getAmi:getAmi", {
  mostRecent = true
  owners     = ["amazon"]
  filters = [{
    name   = "name"
    values = ["al2023-ami-*-x86_64"]
  }]
})

commonTags = {
  Project     = siteName
  Environment = environment
  Region      = region.name
}

resource webSg "aws:ec2/securityGroup:SecurityGroup" {
  description = "HTTP and HTTPS in from ${join(", ", allowedCidrs)}"
  ingress = [for port in [80, 443] : {
    protocol   = "tcp"
    fromPort   = port
    toPort     = port
    cidrBlocks = allowedCidrs
  }]
  tags = commonTags
}

resource web "aws:ec2/instance:Instance" {
  options {
    range     = instanceCount
    dependsOn = [webSg]
    protect   = environment == "prod"
  }
  ami                 = ami.id
  instanceType        = environment == "prod" ? "t3.medium" : "t3.micro"
  vpcSecurityGroupIds = [webSg.id]
  userData            = <<-EOT
    #!/bin/bash
    echo "Hello from ${siteName}, server ${range.value}" > index.html
    nohup python3 -m http.server 80 &
  EOT
  tags = {
    Name        = "${siteName}-web-${range.value}"
    Project     = siteName
    Environment = environment
  }
}

component site "./site" {
  name = siteName
  tags = commonTags
}
