resource "aws" web { x = 1 }
