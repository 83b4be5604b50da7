// Strict: unknown invoke functions are errors (compare ok/skip_invoke_typecheck.pp).
// Deliberate difference: an unknown invoke package is an error in strict mode
// (one per package). The reference warns when it reaches the invoke, but its
// eager package loading has already failed the whole bind with a bare Go error
// and no diagnostics (binder.md §5.2); pcl reports the package instead.
typo     = invoke("tiny:index:getWidgt", { name = "w" })
noPkg    = invoke("nopkg:index:getThing", {})
notToken = invoke("justaname", {})
