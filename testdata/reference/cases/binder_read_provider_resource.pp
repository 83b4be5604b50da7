
read provider "pulumi:providers:random" {
	id = "provider-id"
}
