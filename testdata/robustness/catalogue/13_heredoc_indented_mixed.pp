a = <<-EOT
	  x
  	y
  EOT
b = nope
