component me "." {}
component me2 "./" {}
