resource   r   "p:m:R"   {
}
resource s "p:m:S" {}
resource t "p:m:T" { x = 1 }
component c "./dir" {
  input = r.id
}
output    url   {
    value = "x"
}
