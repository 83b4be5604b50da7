config a string {
  description = a
  nullable = "yes"
  secret = 1
  __logicalName = 3
}

config b "list(" {}
