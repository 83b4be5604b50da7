a = <<-EOT
    Foo
${b}
    Bar
    EOT
