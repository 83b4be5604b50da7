// Schema members the schema gets wrong are errors when the program uses
// them, with the reference's wording (`error loading resource type '…':
// <path>: <problem>`); `good` uses a well-formed resource of the same
// package. A `$ref` never reads a file or the network: one that is not
// `[/<package>/v<version>/schema.json]#/types/<token>` does not parse, and
// one into another package asks the loader for that package by name
// (`noPackage`: a package the schema directories do not have is not an
// error, its types are `dynamic`: pcl cannot tell it from a schema not
// downloaded, which the reference would fetch). Deliberate differences:
// that, and only the member and the types it names directly are checked
// (the reference binds the member's whole type closure).
resource good "invalid:index:Good" {
  value = { name = "x" }
}

resource notAType "invalid:index:NotAType" {}
resource noItems "invalid:index:NoItems" {}
resource fileRef "invalid:index:FileRef" {}
resource httpRef "invalid:index:HttpRef" {}
resource dotRef "invalid:index:DotRef" {}
resource noPackage "invalid:index:NoPackage" {}
resource dangling "invalid:index:Dangling" {}
resource notAList "invalid:index:NotAList" {}
resource badEnumValue "invalid:index:BadEnumValue" {}

nonsense = invoke("invalid:index:getNonsense", {})
badEnum = invoke("invalid:index:getBadEnum", { x = "x" })
