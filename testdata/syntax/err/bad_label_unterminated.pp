block "unterminated_string "name" {}
