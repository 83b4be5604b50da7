config name string {}

output greeting {
  value = "${name} ${undefinedInChild}"
}
