resource web "aws:ec2/instance:Instance" {
options {
dependsOn = [
a,
b,
]
}
    ingress = [{
protocol = "tcp"
fromPort = 80
},
{ protocol = "udp",
fromPort = 53 }]
userData = join("\n", [
    "#!/bin/bash",
        "echo hi",
])
nested = { a = { b = { c = [ 1, [ 2, ( 3 ) ] ] } } }
}
