config d {
}
x = d["foo"]
