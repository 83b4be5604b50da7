// flags: --skip-invoke-typecheck
// Unknown invoke packages and functions are silent; a malformed token is still an error elsewhere, so it is left out here.
typo  = invoke("tiny:index:getWidgt", { name = "w" })
noPkg = invoke("nopkg:index:getThing", {})