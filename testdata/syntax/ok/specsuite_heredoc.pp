normal = {
  basic = <<EOT
Foo
Bar
Baz
EOT
  indented = <<EOT
    Foo
    Bar
    Baz
  EOT
  interp = <<EOT
    Foo
    ${bar}
    Baz
    EOT
  marker_at_suffix = <<EOT
    NOT EOT
    EOT
}
flush = {
  basic = <<-EOT
Foo
Bar
Baz
EOT
  indented = <<-EOT
    Foo
    Bar
    Baz
  EOT
  indented_less = <<-EOT
    Foo
  Bar
    Baz
  EOT
  blank_lines = <<-EOT
    Foo

    Bar
  EOT
  tabs = <<-EOT
	Foo
	 Bar
	 Baz
  EOT
  unicode_spaces = <<-EOT
    Foo
    Bar
  EOT
}
