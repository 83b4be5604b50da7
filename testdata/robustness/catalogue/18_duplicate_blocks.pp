pulumi {
  requiredVersion = ">=3.0.0"
}
pulumi {
  requiredVersion = ">=3.0.0"
}
resource w "tiny:index:Widget" {
  name = "w"
  kind = "widget"
  options {
    protect = true
  }
  options {
    protect = false
  }
}
