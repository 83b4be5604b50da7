# mistake: line 2: missing-argument: join called without its separator
j = join(["a"])
