// flags: --allow-missing-variables
// Undefined names are warnings (binder-vectors E21).
resource r "tiny:index:Widget" {
  name = undefinedName
  options {
    parent = parentComponent
  }
}

value = r.arn == missingToo
