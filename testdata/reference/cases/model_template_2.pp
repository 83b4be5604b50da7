config a "string" {
}
config c "bool" {
}
x = "%{if c} v: ${a} %{endif}"
