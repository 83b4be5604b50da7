component escape "../../etc" {}
component missing "./nothing-here" {}
component wrong "./" {}
