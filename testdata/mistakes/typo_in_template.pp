# mistake: line 5: undefined-variable: a misspelt name inside a template
config env string {
  default = "dev"
}
label = "app-${evn}"
