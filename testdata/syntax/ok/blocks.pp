config size int {
  default = 3
}

resource bucket "aws:s3:Bucket" {
  acl = "private"

  options {
    protect = true
  }
}

outer {
  middle "m" {
    inner a "b" c {
      deep = 1
    }
  }
}

empty {
}

also_empty {}
