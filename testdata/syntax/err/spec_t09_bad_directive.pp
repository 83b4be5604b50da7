x = "%{ iff a }x%{ endif }"
