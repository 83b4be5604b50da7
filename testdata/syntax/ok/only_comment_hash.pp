# Hash comment
