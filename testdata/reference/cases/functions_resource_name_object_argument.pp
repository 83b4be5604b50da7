res = { id = "foo", urn = "bar" }
				type = pulumiResourceName(res)