// An output named like a config of another file: `port` in the value is
// the config (definitions come before outputs), so checked alone
// (`pcl check outputs.pp`) this is no circular reference either
// (tests/alone.rs checks every file of this directory alone).
output "port" {
  value = port
}
