
	config "data" "object({ lambda=object({ subnetIds=list(string) }) })" {
	}
    output "numberOfEndpoints" {
        value = length(data.lambda.subnetIds)
    }
