// A program with every block kind.
pulumi {
  requiredVersionRange = ">=3.0.0"
}

config prefix string {
  description = "name prefix"
  default     = "w"
}

config count int {
  nullable = true
  secret   = true
}

# The widget everything hangs off.
resource widget "tiny:index:Widget" {
  __logicalName = "the-widget"
  name          = "${prefix}-one"
  tags          = { env = "dev" }
  options {
    protect       = true
    ignoreChanges = [tags]
  }
}

read existing "tiny:index:Widget" {
  id = "w-123"
}

hook resource notify {
  command = ["echo", args.urn]
}

local = widget.arn

output arn {
  value = local
}
