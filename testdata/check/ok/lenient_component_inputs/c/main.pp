config "cfg" "object({inner=object({foo_bar=string})})" {
}

config "port" "int" {
}

output "name" {
  value = cfg.inner.foo_bar
}
