# Runs of single-line attributes align their `=`; a blank line, a comment
# line or a multi-line value ends the run.
resource bucket "aws:s3/bucket:Bucket" {
  bucket = "logs"
  acl= "private"
  forceDestroy    =true

  tags = {
    Name = "logs"
    "Environment"="dev"
    Team: "platform"
  }
  website={
    indexDocument ="index.html"
  }
  # a comment line ends a run
  versioning = { enabled = true }
}

config region string {
default="us-west-2"
description     = "where"
}
