config siteName string {}
config port int { default = 443 }
config env string {}
