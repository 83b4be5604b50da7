x = héllo + Χαίρετε + _x
