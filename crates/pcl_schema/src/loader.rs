//! Where schemas come from: the [`SchemaLoader`] trait, package descriptors
//! (what a `package` block asks for), and the loaders the CLI and tests use.
//!
//! * [`MemoryLoader`]: schemas handed over as JSON text.
//! * [`DirLoader`]: one or more directories of `<name>-<version>.json` /
//!   `<name>.json` files, also understanding Pulumi's schema-cache names
//!   `<name>-<version>-<12 hex>[-<12 hex>].json`.
//! * [`ChainLoader`]: try loaders in order (e.g. `--schema-dir`s, then the
//!   read-only `$PULUMI_HOME/schemas`).
//! * [`CachingLoader`]: loads each package once per process, thread-safely,
//!   remembering failures too; serves the built-in `pulumi` package when
//!   nothing else provides it.
//!
//! An unpinned request resolves to the highest semantic version available
//! (pre-releases order below their release, as semver says). A request with
//! a parameterization asks for the extension package: its schema is found
//! under the parameterization's name and version, and its
//! `parameterization.baseProvider.name` must match the requested base.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::LoadError;
use crate::package::Package;

/// A parameterization request (from a `package { parameterization { … } }`
/// block): the extension package's name and version and the base64 value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Parameterization {
    pub name: String,
    pub version: semver::Version,
    pub value: String,
}

/// What to load: a package (base provider) name and optional version,
/// download URL and parameterization.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PackageDescriptor {
    pub name: String,
    pub version: Option<semver::Version>,
    pub download_url: Option<String>,
    pub parameterization: Option<Parameterization>,
}

impl PackageDescriptor {
    pub fn new(name: impl Into<String>) -> Self {
        PackageDescriptor {
            name: name.into(),
            version: None,
            download_url: None,
            parameterization: None,
        }
    }

    pub fn with_version(mut self, version: Option<semver::Version>) -> Self {
        self.version = version;
        self
    }

    pub fn with_download_url(mut self, url: Option<String>) -> Self {
        self.download_url = url;
        self
    }

    pub fn with_parameterization(mut self, parameterization: Parameterization) -> Self {
        self.parameterization = Some(parameterization);
        self
    }

    /// The name of the package this loads: the parameterization's name when
    /// there is one.
    pub fn package_name(&self) -> &str {
        self.parameterization
            .as_ref()
            .map_or(&self.name, |p| &p.name)
    }

    /// The version of the package this loads.
    pub fn package_version(&self) -> Option<&semver::Version> {
        match &self.parameterization {
            Some(p) => Some(&p.version),
            None => self.version.as_ref(),
        }
    }
}

impl fmt::Display for PackageDescriptor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.package_name())?;
        if let Some(v) = self.package_version() {
            write!(f, "@{v}")?;
        }
        if self.parameterization.is_some() {
            write!(f, " (parameterized {}", self.name)?;
            if let Some(v) = &self.version {
                write!(f, "@{v}")?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

/// A source of package schemas.
pub trait SchemaLoader: Send + Sync {
    /// Loads the package a descriptor names.
    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError>;

    /// The names of the packages this loader can serve, as far as it
    /// knows them without loading anything (for did-you-mean on an unknown
    /// package); empty when it cannot tell.
    fn package_names(&self) -> Vec<String> {
        Vec::new()
    }

    /// Shorthand for a plain (unparameterized) request.
    fn load_package(
        &self,
        name: &str,
        version: Option<&semver::Version>,
    ) -> Result<Arc<Package>, LoadError> {
        self.load(&PackageDescriptor::new(name).with_version(version.cloned()))
    }
}

impl<L: SchemaLoader + ?Sized> SchemaLoader for Arc<L> {
    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError> {
        (**self).load(request)
    }

    fn package_names(&self) -> Vec<String> {
        (**self).package_names()
    }
}

impl<L: SchemaLoader + ?Sized> SchemaLoader for &L {
    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError> {
        (**self).load(request)
    }

    fn package_names(&self) -> Vec<String> {
        (**self).package_names()
    }
}

/// Checks a loaded package against what was asked for.
fn check_loaded(pkg: &Package, request: &PackageDescriptor) -> Result<(), LoadError> {
    let invalid = |message: String| LoadError::Invalid {
        name: request.package_name().to_owned(),
        path: pkg.origin().map(Path::to_path_buf),
        message,
    };
    if pkg.name() != request.package_name() {
        return Err(invalid(format!(
            "the schema is for package `{}`, not `{}`",
            pkg.name(),
            request.package_name()
        )));
    }
    if request.parameterization.is_some() {
        let Some(sp) = pkg.parameterization() else {
            return Err(invalid(format!(
                "a parameterization of `{}` was requested but the schema is not parameterized",
                request.name
            )));
        };
        if sp.base_provider.name != request.name {
            return Err(invalid(format!(
                "the schema parameterizes `{}`, not `{}`",
                sp.base_provider.name, request.name
            )));
        }
    }
    Ok(())
}

/// Picks the candidate for a request: exact version, or the highest.
fn pick<'a, T>(
    candidates: &'a [(Option<semver::Version>, T)],
    version: Option<&semver::Version>,
) -> Option<&'a T> {
    match version {
        Some(v) => candidates
            .iter()
            .find(|(cv, _)| cv.as_ref() == Some(v))
            .or_else(|| candidates.iter().find(|(cv, _)| cv.is_none()))
            .map(|(_, t)| t),
        // `rev` so that among equal versions the first candidate wins.
        None => candidates
            .iter()
            .rev()
            .filter(|(cv, _)| cv.is_some())
            .max_by(|(a, _), (b, _)| a.cmp(b))
            .or_else(|| candidates.iter().find(|(cv, _)| cv.is_none()))
            .map(|(_, t)| t),
    }
}

fn available(candidates: &[(Option<semver::Version>, impl Sized)]) -> Vec<semver::Version> {
    let mut versions: Vec<semver::Version> =
        candidates.iter().filter_map(|(v, _)| v.clone()).collect();
    versions.sort();
    versions.dedup();
    versions
}

/// A schema source with the version it serves (`None`: unversioned).
type Candidate<T> = (Option<semver::Version>, T);

/// Schemas supplied as JSON text (library users, tests).
#[derive(Default)]
pub struct MemoryLoader {
    /// package name → (version, package), in insertion order.
    packages: HashMap<String, Vec<Candidate<Arc<Package>>>>,
}

impl MemoryLoader {
    pub fn new() -> Self {
        MemoryLoader::default()
    }

    /// Adds a schema; fails if it does not parse.
    pub fn add(&mut self, json: impl Into<String>) -> Result<Arc<Package>, LoadError> {
        let pkg = Arc::new(Package::parse(json, "<memory>", None)?);
        self.packages
            .entry(pkg.name().to_owned())
            .or_default()
            .push((pkg.version().cloned(), Arc::clone(&pkg)));
        Ok(pkg)
    }

    /// Builder form of [`MemoryLoader::add`].
    pub fn with(mut self, json: impl Into<String>) -> Result<Self, LoadError> {
        self.add(json)?;
        Ok(self)
    }
}

impl SchemaLoader for MemoryLoader {
    fn package_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.packages.keys().cloned().collect();
        names.sort();
        names
    }

    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError> {
        let name = request.package_name();
        let version = request.package_version();
        let candidates = self
            .packages
            .get(name)
            .map(Vec::as_slice)
            .unwrap_or_default();
        let pkg = pick(candidates, version).ok_or_else(|| LoadError::NotFound {
            name: name.to_owned(),
            version: version.cloned(),
            available: available(candidates),
            searched: Vec::new(),
        })?;
        check_loaded(pkg, request)?;
        Ok(Arc::clone(pkg))
    }
}

/// A schema file found in a directory.
#[derive(Clone, Debug)]
struct SchemaFile {
    path: PathBuf,
    /// Has a `-<hash>` suffix (a download-URL/parameterization-specific
    /// cache entry); plain files win over these for the same version.
    suffixed: bool,
}

/// Reads `<name>-<version>.json` / `<name>.json` files from directories.
/// Directory listings are read once, on the first request.
///
/// A schema file is opened only when it is a regular file (after symbolic
/// links are resolved): a FIFO, a device or a directory named
/// `<name>-<version>.json` is a [`LoadError::Io`], never opened, so it can
/// neither block the check nor feed it endless bytes. A file larger than
/// [`MAX_SCHEMA_BYTES`] is refused the same way (its size is checked before
/// reading, and reading stops at the limit should it grow meanwhile). A
/// FIFO put in the file's place between the look and the open cannot
/// block the open either (it is opened with `O_NONBLOCK`).
pub struct DirLoader {
    dirs: Vec<PathBuf>,
    listing: OnceLock<Vec<(PathBuf, Vec<String>)>>,
    max_bytes: u64,
    /// Every file this loader opened (or refused to open), in order.
    opened: Mutex<Vec<PathBuf>>,
}

/// The largest schema file a [`DirLoader`] reads: 512 MiB, far above the
/// largest real schema (azure-native's is about 60 MB).
pub const MAX_SCHEMA_BYTES: u64 = 512 * 1024 * 1024;

/// Reads a schema file if it is a regular file of at most `limit` bytes;
/// the error is the message of a [`LoadError::Io`]. The one reader of
/// every file pcl opens ([`pcl_diagnostics::read::read_regular_file`]).
fn read_schema_file(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    use pcl_diagnostics::read::{read_regular_file, ReadError};
    read_regular_file(path, limit).map_err(|e| match e {
        ReadError::TooLarge { .. } => format!("{e} for a schema"),
        e => e.to_string(),
    })
}

impl DirLoader {
    pub fn new(dirs: impl IntoIterator<Item = impl Into<PathBuf>>) -> Self {
        DirLoader {
            dirs: dirs.into_iter().map(Into::into).collect(),
            listing: OnceLock::new(),
            max_bytes: MAX_SCHEMA_BYTES,
            opened: Mutex::new(Vec::new()),
        }
    }

    /// Every schema file this loader has opened or tried to open, in
    /// order: the files of its directories it picked for a request, and
    /// nothing else (what a `$ref` says is never a path).
    pub fn opened(&self) -> Vec<PathBuf> {
        match self.opened.lock() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }

    /// Sets the largest schema file this loader reads (default
    /// [`MAX_SCHEMA_BYTES`]).
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    fn listing(&self) -> &[(PathBuf, Vec<String>)] {
        self.listing.get_or_init(|| {
            self.dirs
                .iter()
                .map(|dir| {
                    let mut names: Vec<String> = std::fs::read_dir(dir)
                        .into_iter()
                        .flatten()
                        .flatten()
                        .filter_map(|e| e.file_name().into_string().ok())
                        .filter(|n| n.ends_with(".json"))
                        .collect();
                    names.sort();
                    (dir.clone(), names)
                })
                .collect()
        })
    }

    /// The files that hold `name`, with their versions (from file names),
    /// across all directories; earlier directories first.
    fn candidates(&self, name: &str) -> Vec<(Option<semver::Version>, SchemaFile)> {
        let mut out: Vec<(Option<semver::Version>, SchemaFile)> = Vec::new();
        for (dir, files) in self.listing() {
            for file in files {
                if let Some((version, suffixed)) = parse_file_name(file, name) {
                    out.push((
                        version,
                        SchemaFile {
                            path: dir.join(file),
                            suffixed,
                        },
                    ));
                }
            }
        }
        // Stable: plain files before suffixed ones, earlier dirs first, so
        // that `pick` (first exact match, last maximum) prefers them.
        out.sort_by_key(|(_, f)| f.suffixed);
        out
    }
}

/// Parses `<name>-<version>[-<12 hex>]*.json` or `<name>.json` for `name`;
/// returns the version and whether hash suffixes were present.
pub fn parse_file_name(file: &str, name: &str) -> Option<(Option<semver::Version>, bool)> {
    let stem = file.strip_suffix(".json")?.strip_prefix(name)?;
    if stem.is_empty() {
        return Some((None, false));
    }
    let mut rest = stem.strip_prefix('-')?;
    let mut suffixed = false;
    loop {
        // Prefer stripping cache hashes: `1.0.0-beta-0123456789ab` is a
        // cache entry of 1.0.0-beta far more likely than a pre-release.
        if let Some((head, tail)) = rest.rsplit_once('-') {
            let hashed = tail.len() == 12 && tail.bytes().all(|b| b.is_ascii_hexdigit());
            if hashed
                && (semver::Version::parse(head).is_ok()
                    || head.rsplit_once('-').is_some_and(|(_, t)| t.len() == 12))
            {
                rest = head;
                suffixed = true;
                continue;
            }
        }
        break;
    }
    semver::Version::parse(rest)
        .ok()
        .map(|v| (Some(v), suffixed))
}

/// The package name a schema file name gives (`<name>[-<version>…].json`):
/// the shortest prefix ending before a `-` that the rest parses as a
/// version after, else the whole stem.
fn package_of_file(file: &str) -> Option<&str> {
    let stem = file.strip_suffix(".json")?;
    let versioned = stem
        .match_indices('-')
        .filter_map(|(i, _)| stem.get(..i))
        .find(|name| !name.is_empty() && parse_file_name(file, name).is_some());
    Some(versioned.unwrap_or(stem)).filter(|n| !n.is_empty())
}

impl SchemaLoader for DirLoader {
    fn package_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .listing()
            .iter()
            .flat_map(|(_, files)| files.iter().filter_map(|f| package_of_file(f)))
            .map(str::to_owned)
            .collect();
        names.sort();
        names.dedup();
        names
    }

    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError> {
        let name = request.package_name();
        let version = request.package_version();
        let candidates = self.candidates(name);
        let Some(file) = pick(&candidates, version) else {
            return Err(LoadError::NotFound {
                name: name.to_owned(),
                version: version.cloned(),
                available: available(&candidates),
                searched: self.dirs.clone(),
            });
        };
        match self.opened.lock() {
            Ok(mut guard) => guard.push(file.path.clone()),
            Err(poisoned) => poisoned.into_inner().push(file.path.clone()),
        }
        let bytes =
            read_schema_file(&file.path, self.max_bytes).map_err(|message| LoadError::Io {
                name: name.to_owned(),
                path: file.path.clone(),
                message,
            })?;
        let mut pkg = Package::parse_bytes(bytes, name, Some(&file.path))?;
        let file_version = candidates
            .iter()
            .find(|(_, f)| f.path == file.path)
            .and_then(|(v, _)| v.clone());
        pkg.set_version_if_missing(file_version.as_ref());
        if let (Some(want), None) = (version, &file_version) {
            // An unversioned `<name>.json` only serves a pinned request if
            // it declares no other version.
            if pkg.version().is_some_and(|v| v != want) {
                return Err(LoadError::NotFound {
                    name: name.to_owned(),
                    version: Some(want.clone()),
                    available: pkg.version().cloned().into_iter().collect(),
                    searched: self.dirs.clone(),
                });
            }
        }
        check_loaded(&pkg, request)?;
        Ok(Arc::new(pkg))
    }
}

/// Tries loaders in order; a `NotFound` falls through to the next one.
pub struct ChainLoader {
    loaders: Vec<Box<dyn SchemaLoader>>,
}

impl ChainLoader {
    pub fn new(loaders: Vec<Box<dyn SchemaLoader>>) -> Self {
        ChainLoader { loaders }
    }
}

impl SchemaLoader for ChainLoader {
    fn package_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .loaders
            .iter()
            .flat_map(|l| l.package_names())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError> {
        let mut versions = Vec::new();
        let mut searched = Vec::new();
        for loader in &self.loaders {
            match loader.load(request) {
                Err(LoadError::NotFound {
                    available,
                    searched: s,
                    ..
                }) => {
                    versions.extend(available);
                    searched.extend(s);
                }
                other => return other,
            }
        }
        versions.sort();
        versions.dedup();
        Err(LoadError::NotFound {
            name: request.package_name().to_owned(),
            version: request.package_version().cloned(),
            available: versions,
            searched,
        })
    }
}

type CacheCell = Arc<OnceLock<Result<Arc<Package>, LoadError>>>;

/// Loads each package at most once per process (thread-safe), remembering
/// failures so that a missing package is reported once. The cache key is
/// (package name, requested version) as in the reference; a loaded package
/// is also filed under its actual version.
pub struct CachingLoader<L> {
    inner: L,
    builtins: bool,
    cache: Mutex<HashMap<(String, Option<semver::Version>), CacheCell>>,
}

impl<L: SchemaLoader> CachingLoader<L> {
    /// Wraps a loader; the built-in `pulumi` package answers requests for
    /// `pulumi` that the inner loader cannot.
    pub fn new(inner: L) -> Self {
        CachingLoader {
            inner,
            builtins: true,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// Turns the built-in `pulumi` fallback off.
    pub fn without_builtins(mut self) -> Self {
        self.builtins = false;
        self
    }

    pub fn inner(&self) -> &L {
        &self.inner
    }

    fn cell(&self, key: (String, Option<semver::Version>)) -> CacheCell {
        let mut cache = match self.cache.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        Arc::clone(cache.entry(key).or_default())
    }
}

impl<L: SchemaLoader> SchemaLoader for CachingLoader<L> {
    fn package_names(&self) -> Vec<String> {
        let mut names = self.inner.package_names();
        if self.builtins {
            names.push("pulumi".to_owned());
        }
        names.sort();
        names.dedup();
        names
    }

    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError> {
        let name = request.package_name().to_owned();
        let key = (name.clone(), request.package_version().cloned());
        let cell = self.cell(key.clone());
        let result = cell
            .get_or_init(|| match self.inner.load(request) {
                Err(LoadError::NotFound { .. })
                    if self.builtins && name == "pulumi" && request.parameterization.is_none() =>
                {
                    crate::builtin::pulumi_package()
                }
                other => other,
            })
            .clone();
        if let Ok(pkg) = &result {
            let actual = (name, pkg.version().cloned());
            if actual != key {
                let _ = self.cell(actual).set(Ok(Arc::clone(pkg)));
            }
        }
        result
    }
}

/// Pulumi's schema cache: `$PULUMI_HOME/schemas`, or `~/.pulumi/schemas`
/// when `PULUMI_HOME` is unset or empty (`None` when neither `HOME` nor
/// `USERPROFILE` is set). It may not exist; it is only ever read.
pub fn pulumi_schema_cache_dir() -> Option<PathBuf> {
    let home = match std::env::var_os("PULUMI_HOME").filter(|v| !v.is_empty()) {
        Some(home) => PathBuf::from(home),
        None => {
            let user = std::env::var_os("HOME")
                .or_else(|| std::env::var_os("USERPROFILE"))
                .filter(|v| !v.is_empty())?;
            PathBuf::from(user).join(".pulumi")
        }
    };
    Some(home.join("schemas"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names() {
        let v = |s: &str| Some(semver::Version::parse(s).unwrap());
        assert_eq!(
            parse_file_name("aws-5.4.0.json", "aws"),
            Some((v("5.4.0"), false))
        );
        assert_eq!(parse_file_name("aws.json", "aws"), Some((None, false)));
        assert_eq!(parse_file_name("aws-native-1.0.0.json", "aws"), None);
        assert_eq!(
            parse_file_name("azure-native-2.41.0.json", "azure-native"),
            Some((v("2.41.0"), false))
        );
        assert_eq!(
            parse_file_name("awsx-1.0.0-beta.5.json", "awsx"),
            Some((v("1.0.0-beta.5"), false))
        );
        assert_eq!(
            parse_file_name(
                "alpha-3.0.0-alpha.1.internal+exp.sha.12345678.json",
                "alpha"
            ),
            Some((v("3.0.0-alpha.1.internal+exp.sha.12345678"), false))
        );
        assert_eq!(
            parse_file_name("tls-4.10.0-0123456789ab-ba9876543210.json", "tls"),
            Some((v("4.10.0"), true))
        );
        assert_eq!(
            parse_file_name("tls-4.10.0-0123456789ab.json", "tls"),
            Some((v("4.10.0"), true))
        );
        assert_eq!(parse_file_name("simple-invoke-10.0.0.json", "simple"), None);
        assert_eq!(parse_file_name("x-notaversion.json", "x"), None);
    }

    #[test]
    fn package_names_from_file_names() {
        for (file, want) in [
            ("aws-5.4.0.json", Some("aws")),
            ("aws.json", Some("aws")),
            ("azure-native-2.41.0.json", Some("azure-native")),
            ("tls-4.10.0-0123456789ab-ba9876543210.json", Some("tls")),
            ("awsx-1.0.0-beta.5.json", Some("awsx")),
            ("simple-invoke.json", Some("simple-invoke")),
            (".json", None),
            ("x.txt", None),
        ] {
            assert_eq!(package_of_file(file), want, "{file}");
        }
    }

    #[test]
    fn pick_highest_or_exact() {
        let v = |s: &str| semver::Version::parse(s).unwrap();
        let c = vec![
            (Some(v("1.5.0")), "a"),
            (Some(v("1.10.0")), "b"),
            (None, "c"),
            (Some(v("2.0.0-rc.1")), "d"),
        ];
        assert_eq!(pick(&c, None), Some(&"d"));
        assert_eq!(pick(&c[..3], None), Some(&"b"));
        assert_eq!(pick(&c, Some(&v("1.5.0"))), Some(&"a"));
        assert_eq!(pick(&c, Some(&v("9.9.9"))), Some(&"c"));
        assert_eq!(pick(&c[..2], Some(&v("9.9.9"))), None);
    }
}
