config "instanceType" "string" {
  default     = "t3.micro"
  description = "The EC2 instance type"
}

config tags "map(string)" {
  default = {}
}

ami = invoke("aws:ec2/getAmi:getAmi", {
  filters = [{
    name   = "name"
    values = ["amzn-ami-hvm-*-x86_64-ebs"]
  }]
  owners     = ["137112412989"]
  mostRecent = true
})

resource securityGroup "aws:ec2/securityGroup:SecurityGroup" {
  ingress = [{
    protocol   = "tcp"
    fromPort   = 80
    toPort     = 80
    cidrBlocks = ["0.0.0.0/0"]
  }]
}

resource server "aws:ec2/instance:Instance" {
  options {
    range     = 3
    dependsOn = [securityGroup]
  }
  instanceType        = instanceType
  vpcSecurityGroupIds = [securityGroup.id]
  ami                 = ami.id
  tags                = merge(tags, { Name = "web-${range.value}" })
  userData            = <<-EOF
    #!/bin/bash
    echo "Hello, World!" > index.html
    nohup python -m SimpleHTTPServer 80 &
  EOF
}

output publicIps {
  value = [for s in server : s.publicIp]
}

output publicHostNames {
  value = { for i, s in server : "server-${i}" => s.publicDns if s != null }
}
