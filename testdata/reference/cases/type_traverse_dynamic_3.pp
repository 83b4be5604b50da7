config d {
}
x = d[0]
