config required string {}
config optional string { default = "x" }
