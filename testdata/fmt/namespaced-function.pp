# hclwrite-rejects: namespaced functions came with hcl 2.20 (Debian's hclwrite 2.14 rejects
# them); pcl follows the rule hclwrite has had since: no space around `::`.
x = provider::aws::arn_parse( "arn" )
yy=1
