
resource stackRef "pulumi:pulumi:StackReference" {
    name = "org/project/stack"
}
