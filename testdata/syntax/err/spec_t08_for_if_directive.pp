x = "%{ for v in m if v }x%{ endfor }"
