
resource main "auto-deploy:index:AutoDeployer" {
    project = "example"
}