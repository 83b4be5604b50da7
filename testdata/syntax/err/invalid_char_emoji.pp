a = b🌻
