//! Machine-readable contracts: the JSON outputs of every corpus program
//! validate against `docs/schema/`, `docs/codes.md` matches the catalogue,
//! and the workspace's `rust-version` covers every locked dependency.

use std::process::Command;

use pcl_tests::{corpus_groups, repo, run};
use serde_json::Value;

fn schema(name: &str) -> jsonschema::Validator {
    let path = repo().join("docs/schema").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    jsonschema::validator_for(&value).unwrap_or_else(|e| panic!("{name} is not a schema: {e}"))
}

fn validate(validator: &jsonschema::Validator, text: &str, what: &str) {
    let value: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}"));
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .take(10)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
}

#[test]
fn json_and_model_outputs_of_every_corpus_program_validate() {
    let Some(groups) = corpus_groups("json and model contracts") else {
        return;
    };
    let json_schema = schema("check-json.schema.json");
    let model_schema = schema("model.schema.json");
    let mut programs = 0;
    for (schemas, paths) in &groups {
        let mut args = vec!["check", "--no-config", "--schema-dir", schemas.as_str()];
        args.extend(paths.iter().map(String::as_str));
        let mut json_args = args.clone();
        json_args.extend(["--format", "json"]);
        let out = run(&json_args);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{schemas}");
        let text = String::from_utf8_lossy(&out.stdout);
        validate(&json_schema, &text, &format!("json of {schemas}"));
        let doc: Value = serde_json::from_str(&text).unwrap_or_default();
        let n = doc["programs"].as_array().map_or(0, Vec::len);
        assert_eq!(n, paths.len(), "every program is in the document");
        programs += n;
        let mut model_args = args.clone();
        model_args.extend(["--emit", "model", "--color", "never"]);
        let out = run(&model_args);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{schemas}");
        validate(
            &model_schema,
            &String::from_utf8_lossy(&out.stdout),
            &format!("model of {schemas}"),
        );
    }
    pcl_testkit::at_least("corpus programs", programs, 200);
    // A document with run errors validates too.
    let out = run(&["check", "--format", "json", "nothing-here"]);
    validate(
        &json_schema,
        &String::from_utf8_lossy(&out.stdout),
        "run errors",
    );
}

/// A schema must reject what the contract forbids, or it checks nothing.
#[test]
fn schemas_reject_broken_documents() {
    let json_schema = schema("check-json.schema.json");
    let bad = serde_json::json!({"version": 1, "programs": [], "summary": {"programs": 0, "errors": 0, "warnings": 0}});
    assert!(!json_schema.is_valid(&bad), "run_errors is required");
    let model_schema = schema("model.schema.json");
    let bad = serde_json::json!({"version": 1, "programs": [{"directory": "", "files": [], "packages": [], "order": [],
        "nodes": [{"id": 0, "kind": "widget"}]}]});
    assert!(!model_schema.is_valid(&bad), "node kinds are checked");
}

/// The workspace's `rust-version` is no lower than that of any locked
/// dependency, so `cargo install --locked` works with the Rust it names.
#[test]
fn rust_version_covers_locked_dependencies() {
    // Only the packages of this platform: a fresh machine's build fetches
    // no others (Windows-only crates such as `anstyle-wincon` are never
    // downloaded on Linux), so no download is needed. `.ci/run`
    // runs the tests with a cargo home that holds only what the build
    // fetched, so a test that needs more fails there.
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let info = Command::new(rustc)
        .arg("-vV")
        .output()
        .unwrap_or_else(|e| panic!("cannot run rustc -vV: {e}"));
    let info = String::from_utf8_lossy(&info.stdout);
    let host = info
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .unwrap_or_else(|| panic!("rustc -vV names no host:\n{info}"));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(repo())
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--filter-platform",
            host,
        ])
        .output()
        .unwrap_or_else(|e| panic!("cannot run cargo metadata: {e}"));
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
    // `1.85` is `1.85.0`.
    let version = |text: &str| -> Vec<u64> {
        let mut parts: Vec<u64> = text.split('.').map(|p| p.parse().unwrap_or(0)).collect();
        parts.resize(3, 0);
        parts
    };
    let members: Vec<&str> = meta["workspace_members"]
        .as_array()
        .map(|m| m.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let packages = meta["packages"].as_array().cloned().unwrap_or_default();
    let workspace = packages
        .iter()
        .find(|p| p["name"] == "pcl_cli")
        .and_then(|p| p["rust_version"].as_str())
        .map(version)
        .unwrap_or_else(|| panic!("pcl_cli has no rust-version"));
    let mut too_new = Vec::new();
    for p in &packages {
        let id = p["id"].as_str().unwrap_or("");
        if members.contains(&id) {
            continue;
        }
        if let Some(rv) = p["rust_version"].as_str() {
            if version(rv) > workspace {
                too_new.push(format!("{} {} needs {rv}", p["name"], p["version"]));
            }
        }
    }
    assert!(
        too_new.is_empty(),
        "rust-version {workspace:?} is lower than: {too_new:?}"
    );
}
