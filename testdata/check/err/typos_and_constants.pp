# Typos the reference ignores (warnings, each with a did-you-mean and a
# fix), constants that can never convert (warnings), an unknown type
# keyword (an error), and one mistake that gives one diagnostic.
package {
  baseProviderName    = "tiny"
  baseProviderVersoin = "1.0.0"
}

pulumi {
  requiredVersionRang = ">=3.0.0"
}

config n int {
  default = "three"
}

config maybe "list(bool)" {
  defualt = ["yes"]
  default = [true, "yes", "false"]
}

config flag bool {
  default = 1
}

config ratio number {
  default = false
}

config port numbr {
}

config sizes "map(number)" {
  default = { a = "1", b = "two" }
}

# A misspelt resource block: the block is ignored with a warning, and its
# name is not also an undefined variable below.
resorce ghost "tiny:index:Widget" {
  name = "ghost"
}

resource w "tiny:index:Widget" {
  name = "w"
  options {
    protect = "yes"
    retainOnDelete = "true"
    deleteBeforeReplace = 2
  }
}

ouput lost {
  value = w.name
}

output shown {
  vaule = ghost.name
}
