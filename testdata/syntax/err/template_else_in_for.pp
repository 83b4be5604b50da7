a = "%{ for v in xs }%{ else }%{ endfor }"
