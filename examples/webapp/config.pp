// Settings a stack can override with `pulumi config set`.

# How many web servers to run.
config instanceCount int {
  default     = 2
  description = "How many web servers to run."
}

config siteName string {
  default     = "hello-pcl"
  description = "A short name used for buckets and tags."
}

config allowedCidrs "list(string)" {
  default     = ["0.0.0.0/0"]
  description = "Networks allowed to reach the web servers."
}

config environment string {
  default = "dev"
}
