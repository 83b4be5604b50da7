x = a🌻
