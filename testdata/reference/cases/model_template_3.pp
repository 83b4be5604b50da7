config d "list(string)" {
}
x = "%{for v in d} v: ${v} %{endfor}"
