config d "list(string)" {
}
x = {for k, v in d: v => k if k > 10}
