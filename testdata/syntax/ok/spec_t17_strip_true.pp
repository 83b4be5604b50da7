x = " ${~ true ~} "
