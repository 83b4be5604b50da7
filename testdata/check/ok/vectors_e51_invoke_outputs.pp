// binder-vectors E51-E55: invokes with output arguments use the output form.
resource rng "random:index/randomInteger:RandomInteger" {
  min = 0
  max = 100
}

config y "any" {}
config x "any" {}

result51 = invoke("std:index:Abs", { a = rng.result, b = 1 })
result52 = invoke("std:index:Abs", { a = rng.result, b = y })
args     = secret({ a = 1, b = 2 })
result53 = invoke("std:index:Abs", args)

isOne  = invoke("std:index:Abs", { a = 1, b = 1 }).result == 1
maybe  = isOne ? x : null
either = true ? maybe : try(x, null)

resource stackRef "pulumi:pulumi:StackReference" {
  name = "org/project/stack"
}
