output said { value = "hi" }
