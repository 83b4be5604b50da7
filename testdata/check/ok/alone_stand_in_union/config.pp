config "files" "list(object({path=string}))" {
  default = null
}
