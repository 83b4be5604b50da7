// Slash comment
