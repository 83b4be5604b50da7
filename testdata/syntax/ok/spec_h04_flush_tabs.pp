a = <<-EOT
		Foo
    Bar
  EOT
