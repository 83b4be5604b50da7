

a = 1



b = 2
resource r "p:m:R" {

  x = 1


}


