x = true ? 0 : false
