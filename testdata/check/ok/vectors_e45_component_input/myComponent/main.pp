config myInput number {}
