component again "./self" {}
