component loop "." {}
component up ".." {}
