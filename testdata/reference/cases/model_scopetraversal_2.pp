config d "map(bool)" {
}
x = d.foo
