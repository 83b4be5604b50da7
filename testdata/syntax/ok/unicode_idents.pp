héllo = 1
Χαίρετε = 2
привет = 3
こんにちは = 4
_x = héllo + Χαίρετε + _x
ÉOT = <<ÉOT
text
ÉOT
s = "föo ${föo("föo")}"
emoji = "🌻 and ZWJ 👩‍👩‍👧 sequence"
combining = "año"
label "año" "👍" {}
