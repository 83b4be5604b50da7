config m "map(any)" {
}
x = m.foo
