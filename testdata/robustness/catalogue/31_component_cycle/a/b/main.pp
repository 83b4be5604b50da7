component up ".." {}
component root "../.." {}
