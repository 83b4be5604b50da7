x = false || false
