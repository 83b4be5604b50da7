// A static website served from a bucket.

config name string {
  description = "The site's name."
}

config tags "map(string)" {
  default = {}
}

resource bucket "aws:s3/bucket:Bucket" {
  bucket       = "${name}-site"
  forceDestroy = true
  website = {
    indexDocument = "index.html"
    errorDocument = "error.html"
  }
  tags = tags
}

resource pages "aws:s3/bucketObject:BucketObject" {
  options {
    range = {
      "index.html" = "<h1>${name}</h1>"
      "error.html" = "<h1>Not found</h1>"
    }
  }
  bucket      = bucket.bucket
  key         = range.key
  source      = stringAsset(range.value)
  contentType = "text/html"
}

output url {
  value = "http://${bucket.websiteEndpoint}"
}
