component a "./a" {}
