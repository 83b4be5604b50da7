output publicIps {
  value = [for server in web : server.publicIp]
}

output serverCount {
  value = length(web)
}

output siteUrl {
  value = site.url
}

output greeting {
  value = "%{if environment == "prod"}Welcome%{else}Hello from ${environment}%{endif}, ${siteName}!"
}

output settings {
  value = toJSON({
    servers = instanceCount
    cidrs   = allowedCidrs
  })
}
