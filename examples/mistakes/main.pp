// A program with deliberate mistakes, to show what pcl check reports.
// Each mistake is commented with the diagnostic code it triggers.

config region string {
  default = "us-west-2"
}

# type-not-convertible: a number is not a list of ports.
config ports "list(int)" {
  default = 80
}

resource bucket "aws:s3/bucket:Bucket" {
  # unsupported-attribute: did you mean `bucket`?
  bukcet = "logs"
  tags = {
    # attribute-type-mismatch: tags["Team"] must be a string.
    Team = ["platform"]
  }
}

# missing-required-attribute: an instance needs an `ami`.
resource server "aws:ec2/instance:Instance" {
  instanceType = "t3.micro"
  # undefined-variable: did you mean `region`?
  userData = "bucket ${bucket.arn} in ${regoin}"
}

# unknown-resource-type: the example schema has no SQS.
resource queue "aws:sqs/queue:Queue" {
}

# circular-reference: a and b refer to each other.
a = b
b = a

output endpoint {
  # unknown-property: instances have `publicIp`.
  value = server.publicIpAddress
}
