# Deliberate difference: a string constant that is none of a string enum's
# values converts to the enum only unsafely, so the reference is silent;
# it can never be one of the values, so pcl warns (`unknown-enum-value`),
# with the close values as fixes. The verdict is unchanged.
resource typo "tiny:index:Widget" {
  name = "typo"
  size = "smal"
}

resource right "tiny:index:Widget" {
  name = "right"
  size = "large"
}

resource far "tiny:index:Widget" {
  name = "far"
  size = "enormous"
}
