# mistake: line 4: duplicate-declaration: a config and a local of one name
config region string {
}
region = "eu"
