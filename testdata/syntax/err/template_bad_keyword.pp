a = "%{ iff a }x%{ endif }"
