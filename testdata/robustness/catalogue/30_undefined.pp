bucketName = "b"
x = y
output o {
  value = bucket.arn
}
z = buckatName
