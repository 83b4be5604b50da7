//! Shared by the `corpus` test and the `check` bench (included there with
//! `#[path]`): where the shared corpus is, and its schema loader.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_schema::{CachingLoader, DirLoader, LoadError, Package, PackageDescriptor, SchemaLoader};

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

/// The conformance folder's defaults for unpinned packages (corpus README).
pub struct Defaults {
    pub inner: CachingLoader<DirLoader>,
    pub conformance: bool,
}

impl SchemaLoader for Defaults {
    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError> {
        if self.conformance && request.version.is_none() && request.parameterization.is_none() {
            let pinned = match request.name.as_str() {
                "simple" => Some("2.0.0"),
                "nestedobject" => Some("1.42.0"),
                "conformance-component" => Some("22.0.0"),
                "builtin-info-component" => Some("37.0.0"),
                "bad" => Some("3.0.0"),
                _ => None,
            };
            if let Some(v) = pinned.and_then(|v| semver::Version::parse(v).ok()) {
                return self.inner.load(&request.clone().with_version(Some(v)));
            }
        }
        self.inner.load(request)
    }
}
