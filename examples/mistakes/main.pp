// A program with deliberate mistakes, to show what pcl check reports.

config count int {
  default = "three"
}

resource bucket "aws:s3/bucket:Bucket" {
  bukcet = "logs"
  tags = {
    Team = ["platform"]
  }
}

resource server "aws:ec2/instance:Instance" {
  instanceType = "t3.micro"
  userData     = "bucket ${bucket.arn} in ${regoin}"
}

resource queue "aws:sqs/queue:Queue" {
}

a = b
b = a

output endpoint {
  value = server.publicIpAddress
}
