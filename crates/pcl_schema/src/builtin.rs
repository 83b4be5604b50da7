//! The built-in `pulumi` package, available without any schema file
//! (binder.md §5.6.1): `pulumi:index:Stash`, `pulumi:pulumi:StackReference`
//! and a provider with a `name` input.

use std::sync::{Arc, OnceLock};

use crate::error::LoadError;
use crate::package::Package;

/// The schema text of the built-in package (written for pcl from the
/// facts in binder.md, not copied).
pub const PULUMI_SCHEMA: &str = r#"{
  "name": "pulumi",
  "displayName": "Pulumi",
  "description": "Resources built into the Pulumi engine",
  "provider": {
    "inputProperties": { "name": { "type": "string" } }
  },
  "resources": {
    "pulumi:index:Stash": {
      "description": "Keeps a value in the stack state.",
      "inputProperties": { "input": { "$ref": "pulumi.json#/Any" } },
      "requiredInputs": ["input"],
      "properties": {
        "input": { "$ref": "pulumi.json#/Any" },
        "output": { "$ref": "pulumi.json#/Any" }
      },
      "required": ["input", "output"]
    },
    "pulumi:pulumi:StackReference": {
      "description": "Reads the outputs of another stack.",
      "inputProperties": { "name": { "type": "string" } },
      "properties": {
        "name": { "type": "string" },
        "outputs": { "type": "object", "additionalProperties": { "$ref": "pulumi.json#/Any" } },
        "secretOutputNames": { "type": "object", "additionalProperties": { "type": "string" } }
      },
      "required": ["outputs"]
    }
  }
}"#;

/// The shared built-in `pulumi` package.
pub fn pulumi_package() -> Result<Arc<Package>, LoadError> {
    static PACKAGE: OnceLock<Result<Arc<Package>, LoadError>> = OnceLock::new();
    PACKAGE
        .get_or_init(|| Package::parse(PULUMI_SCHEMA, "pulumi", None).map(Arc::new))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_package_decodes() {
        let pkg = Package::parse(PULUMI_SCHEMA, "pulumi", None).unwrap();
        assert!(pkg.decode_all().is_empty());
        let stash = pkg.lookup_resource("pulumi:index:Stash").unwrap().unwrap();
        assert_eq!(stash.canonical_token, "pulumi::Stash");
        let sr = pkg
            .lookup_resource("pulumi:pulumi:StackReference")
            .unwrap()
            .unwrap();
        assert_eq!(sr.bound_token, "pulumi:pulumi:StackReference");
        assert!(sr.item.output("outputs").unwrap().required);
        let provider = pkg
            .lookup_resource("pulumi:providers:pulumi")
            .unwrap()
            .unwrap();
        assert!(provider.item.input("name").is_some());
        assert_eq!(pulumi_package().unwrap().name(), "pulumi");
    }
}
