
config "data" "any" {}
value = element(data, 0)
