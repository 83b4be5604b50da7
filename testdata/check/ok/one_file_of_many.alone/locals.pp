helper   = "h"
zones    = ["a", "b"]
regions  = ["r"]
more     = []
evenMore = []
component comp "./comp" {}
