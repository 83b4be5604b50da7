pulumi {
  requiredVersion = ">=3.0.0"
}
