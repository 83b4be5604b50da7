# pcl-deviation: hclwrite drops a byte-order mark; pcl keeps it (formatting changes only
# whitespace between tokens) and formats the rest as hclwrite does.
a   =  1
bb = 2
