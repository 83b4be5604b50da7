x = "${"hello " ~}${" world"}"
