resource resource "rewrite:index:Res" {
}

x = resource.objectOutput.doesNotExist
