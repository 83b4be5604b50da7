config value string {}
output doubled { value = "${value}${value}" }
