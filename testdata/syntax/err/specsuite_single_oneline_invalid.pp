a { b = "foo", c = "bar" }
a { b = "foo"
}
a { b = "foo"
}
a { b = "foo"
}
a {
a { b {} }
}
