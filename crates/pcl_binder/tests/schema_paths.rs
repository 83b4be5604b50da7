//! Checking a program whose schemas hold hostile `$ref`s
//! (`file:///etc/passwd#/types/…`, `http://…`, `../../etc/passwd`, a
//! package that does not exist) reads no file outside the schema
//! directories and asks the loader only for packages by name (robustness
//! issue #18, finding 5): a tracing loader records every request and every
//! file opened.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use pcl_binder::{check_program, BindPolicy};
use pcl_schema::{DirLoader, LoadError, Package, PackageDescriptor, SchemaLoader};

/// A [`DirLoader`] that also records every request it answers.
struct Tracing {
    inner: DirLoader,
    requests: Mutex<Vec<String>>,
}

impl SchemaLoader for Tracing {
    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError> {
        if let Ok(mut requests) = self.requests.lock() {
            requests.push(request.to_string());
        }
        self.inner.load(request)
    }
}

#[test]
fn hostile_refs_read_nothing_outside_the_schema_dirs() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let schemas = root.join("testdata/schemas");
    let program = root.join("testdata/check/err/schema_invalid.pp");
    let text = std::fs::read_to_string(&program).unwrap_or_else(|e| panic!("{e}"));
    let loader = Tracing {
        inner: DirLoader::new([schemas.clone()]),
        requests: Mutex::new(Vec::new()),
    };
    let checked = check_program(
        &[("schema_invalid.pp".to_string(), text)],
        &loader,
        &BindPolicy::strict(),
    );
    let codes: Vec<&str> = checked.diagnostics().iter().map(|d| d.code.0).collect();
    assert!(codes.contains(&"schema-error"), "{codes:?}");
    // Requests are package names (with versions), never paths.
    let requests = loader
        .requests
        .lock()
        .map(|r| r.clone())
        .unwrap_or_default();
    for request in &requests {
        assert!(
            request == "invalid" || request.starts_with("nosuchpackage@") || request == "pulumi",
            "unexpected request {request:?} in {requests:?}"
        );
    }
    assert!(requests.iter().any(|r| r.starts_with("nosuchpackage@")));
    // Files opened: only schema files of the schema directory.
    let opened = loader.inner.opened();
    assert!(!opened.is_empty());
    for path in &opened {
        assert_eq!(path.parent(), Some(schemas.as_path()), "{}", path.display());
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        assert!(name.ends_with(".json"), "{}", path.display());
        assert!(!path.starts_with(Path::new("/etc")));
    }
}
