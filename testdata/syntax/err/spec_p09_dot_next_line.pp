a = b
.c
