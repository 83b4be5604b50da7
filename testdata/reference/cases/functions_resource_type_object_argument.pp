res = { id = "foo", urn = "bar" }
				type = pulumiResourceType(res)