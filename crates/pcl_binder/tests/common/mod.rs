//! Shared by the `corpus` and `schema_cache` tests and the `check` bench
//! (included there with `#[path]`): where the shared corpus is, its
//! manifest, and its schema loader.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pcl_binder::BindPolicy;
use pcl_schema::{CachingLoader, DirLoader, LoadError, Package, PackageDescriptor, SchemaLoader};

pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

/// One program line of `manifest.tsv`.
pub struct ManifestRow {
    pub name: String,
    /// Relative to [`corpus_dir`].
    pub program_dir: String,
    /// Relative to [`corpus_dir`].
    pub schema_dir: String,
    /// Whether every schema the program needs is present.
    pub checkable: bool,
    /// `clean` or `error` (read by the corpus test only).
    #[allow(dead_code)]
    pub expect: String,
    /// The policy flags, `-` for none.
    pub flags: String,
    /// Expected error substrings, separated by ` | ` (corpus test only).
    #[allow(dead_code)]
    pub messages: String,
}

impl ManifestRow {
    /// The policy the manifest's flags ask for (strict by default).
    pub fn policy(&self) -> BindPolicy {
        // `-` is the manifest's "no flags".
        let flags: Vec<&str> = self
            .flags
            .split_whitespace()
            .filter(|f| *f != "-")
            .collect();
        BindPolicy::from_flags(&flags.join(" ")).unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }

    /// A fresh loader for the program's schema folder.
    pub fn loader(&self) -> Defaults {
        Defaults {
            inner: CachingLoader::new(DirLoader::new([corpus_dir().join(&self.schema_dir)])),
            conformance: self.schema_dir.contains("conformance"),
        }
    }
}

/// The manifest's 203 programs, less a margin: fewer means the corpus
/// was truncated.
pub const MIN_PROGRAMS: usize = 200;

/// The program lines of the manifest, in order; `None` when the corpus is
/// absent (a failure under `PCL_REQUIRE_CORPUS=1`, see `pcl_testkit`).
/// Lines without all seven columns are skipped.
pub fn manifest() -> Option<Vec<ManifestRow>> {
    pcl_testkit::shared("corpus/manifest.tsv", "binder corpus")?;
    let rows = pcl_testkit::corpus_manifest(&corpus_dir())
        .into_iter()
        .map(|row| ManifestRow {
            name: row.name,
            program_dir: row.program_dir,
            schema_dir: row.schema_dir,
            checkable: row.checkable,
            expect: row.expect,
            flags: row.flags,
            messages: row.messages,
        })
        .collect::<Vec<_>>();
    pcl_testkit::at_least("corpus manifest programs", rows.len(), MIN_PROGRAMS);
    Some(rows)
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
