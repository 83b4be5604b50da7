// Every builtin function of binder.md §4.1, each bound to a local so the
// golden shows its result type. Plain arguments give plain results; an
// output argument lifts the result where the reference lifts it.
config names "list(string)" {}
config byName "map(string)" {}
config obj "object({a = string, b = int})" {}
config n int {}
config x number {}

resource w "tiny:index:Widget" {
  name = "w"
}

resource ws "tiny:index:Widget" {
  name = "ws-${range.value}"
  options {
    range = 2
  }
}

resource stackRef "pulumi:pulumi:StackReference" {
  name = "org/project/stack"
}

# element: the element type; a tuple unifies its elements; output lifts.
elementList   = element(names, 0)
elementTuple  = element(["a", 1], 1)
elementOutput = element(ws[*].arn, 0)

# entries: a list of {key, value} objects.
entriesMap  = entries(byName)
entriesList = entries(names)

# Assets and archives.
archiveFile   = fileArchive("./site")
archiveRemote = remoteArchive("https://example.com/a.zip")
archiveAssets = assetArchive({ index = fileAsset("index.html"), text = stringAsset("x") })
assetFile     = fileAsset("index.html")
assetString   = stringAsset("hello")
assetRemote   = remoteAsset("https://example.com/a.txt")

# Strings and files.
joined    = join(",", names)
parts     = split(",", "a,b")
content   = readFile("a.txt")
b64       = filebase64("a.bin")
b64sha    = filebase64sha256("a.bin")
digest    = sha1("x")
encoded   = toBase64("x")
decoded   = fromBase64("eA==")
json      = toJSON({ a = 1 })
jsonOfOut = toJSON(w.arn)

# length: int, output(int) for an eventual argument.
lengthList   = length(names)
lengthString = length("abc")
lengthOutput = length(w.tags)

# lookup: the map's element type; an object unifies its properties.
lookupMap    = lookup(byName, "k", "default")
lookupObject = lookup(obj, "a")

rangeTo     = range(3)
rangeFromTo = range(1, 3)

secretValue   = secret(n)
unsecretValue = unsecret(secretValue)

stackName   = stack()
projectName = project()
orgName     = organization()
workDir     = cwd()
rootDir     = rootDirectory()
todo        = notImplemented("later")

singleList  = singleOrNone(names)
singleTuple = singleOrNone([1, 2])

stackOutput = getOutput(stackRef, "vpcId")

tried       = try(1, 2)
triedOutput = try(w.arn, "none")
canPlain    = can(n)
canOutput   = can(w.arn)
recovered   = recover(w.arn, error)

maxInt    = max(n, 1, 2)
maxNumber = max(n, x)
minInt    = min(n, 3)
minOutput = min(length(w.tags), 3)

resourceType = pulumiResourceType(w)
resourceName = pulumiResourceName(ws[0])

invoked = invoke("tiny:index:getWidget", { name = "w" })
count   = invoke("tiny:index:getCount", {})
labels  = invoke("tiny:index:getPlainLabels", {})
called  = call(w, "describe", {})

# binder-vectors F (functions_test.go).
config untyped {}
tryDynamic  = try(1, untyped)
trySecret   = try(1, 2, secret(3))
canSecret   = can(secret(1))
singleThree = singleOrNone([1, 2, 3])
