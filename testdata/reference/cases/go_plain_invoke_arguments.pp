
policy = invoke("infra:index:getPolicyDocument", {
	statements = [{
		sid = "1"
	}]
})