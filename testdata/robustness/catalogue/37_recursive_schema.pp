resource f "recursive:index:Forest" {
  root = {
    value = "a"
    children = [{ value = "b", left = { value = 1 } }]
    meta = { owner = { value = "c", meta = { notes = { k = { owner = { valu = "d" } } } } } }
  }
}
output o {
  value = f.root.children[0].left.meta.owner.left.value
}
