// Strict: undefined names are errors (compare ok/allow_missing_variables.pp).
resource r "tiny:index:Widget" {
  name = undefinedName
  options {
    parent = parentComponent
  }
}

value = r.arn == missingToo
