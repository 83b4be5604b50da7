// Builtins called with the wrong number or the wrong kind of arguments.
config names "list(string)" {}
config tags "set(string)" {}
config flag bool {}

elementNotList = element(flag, 0)
elementNoIndex = element(names)
lengthOfSet    = length(tags)
lookupNotMap   = lookup(names, "a")
toJsonTwo      = toJSON(1, 2)
singleNone     = singleOrNone()
singleString   = singleOrNone("x")
tryNothing     = try()
canNothing     = can()
canTwo         = can(1, 2)
recoverPlain   = recover(1, 2)
recoverOne     = recover(flag)
typeOfNothing  = pulumiResourceType()
nameOfObject   = pulumiResourceName({ id = "x" })
joinNotList    = join(",", "a")
joinExtra      = join(",", names, "extra")
stackArg       = stack(1)
maxOfList      = max(names)
assetNoPath    = fileAsset()
entriesNothing = entries()

# Removed at the reference's HEAD (binder.md §4.2): unknown functions.
mime  = mimeType("a.txt")
files = readDir(".")

# A typo gets a did-you-mean.
typo = lenght(names)

# binder-vectors F: wrong arities and a non-resource argument.
singleThree = singleOrNone(1, 2, 3)
rootArg     = rootDirectory("foo")
typeTwo     = pulumiResourceType(1, 2)
res         = { id = "foo", urn = "bar" }
typeOfObj   = pulumiResourceType(res)

# Wrong argument types and counts for the rest of the builtins.
archiveList    = fileArchive(names)
remoteNoUri    = remoteArchive()
assetsNotMap   = assetArchive(["a"])
stringAssetTwo = stringAsset("a", "b")
remoteAssetMap = remoteAsset({ uri = "x" })
rangeOfList    = range(names)
rangeThree     = range(1, 2, 3)
readFileList   = readFile(names)
b64NoPath      = filebase64()
shaNoPath      = filebase64sha256({})
sha1Two        = sha1("a", "b")
toBase64List   = toBase64(names)
fromBase64None = fromBase64()
splitOne       = split(",")
secretNothing  = secret()
unsecretTwo    = unsecret(1, 2)
projectArg     = project("p")
orgArg         = organization("o")
cwdArg         = cwd(".")
todoList       = notImplemented(names)
getOutputOne   = getOutput(1)
minOfMap       = min({ a = 1 })
