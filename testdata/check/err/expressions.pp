// Expression-level diagnostics (binder.md §8.1), one per line.
config names "list(string)" {}
config tags "set(string)" {}
config byName "map(string)" {}
config obj "object({a = string, b = int})" {}
config pair "tuple([string, int])" {}
config text string {}

pulumi {
  requiredVersionRange = ">=3.0.0"
}

iterateString  = [for c in text : c]
traverseString = text.length
traverseSet    = tags[0]
caseMismatch   = obj.A
listIndex      = names[[0]]
mapKey         = byName[[0]]
tupleFraction  = pair[0.5]
tupleTooFar    = pair[5]
objectKey      = obj[[0]]
unknownMember  = obj.c
duplicateVar   = [for k, k in names : k]
badObjectKey   = { (names) = 1 }
pulumiField    = pulumi.requiredVersionRange
unknownCall    = frobnicate(1)
missingArg     = join(",")
extraArg       = split(",", "a", "b")
notConvertible = !names
