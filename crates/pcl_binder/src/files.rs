//! Where component sources come from: the [`FileProvider`] trait, the file
//! system ([`FsFiles`]) and memory ([`MemoryFiles`]).
//!
//! Directories are named by **keys**: `/`-separated paths relative to the
//! **root**, the directory no program file or component may leave (`""` is
//! the root itself). The checked program's own directory has a key too
//! ([`FileProvider::program_dir`]); it is the root unless the provider was
//! given a root above it. A component source is resolved against the key of
//! the directory that names it ([`FileProvider::resolve`]): [`FsFiles`]
//! resolves symbolic links, so a key is the directory's canonical path and
//! two spellings of one directory (`./l1`, `./l2`, both links to `.`) get
//! one key; a directory or a listed `.pp` file whose real path leaves the
//! root is refused. [`MemoryFiles`] has no links and normalises `.` and
//! `..` lexically.
//!
//! A listing ([`FileProvider::list_dir`]) never fails on one file: a `.pp`
//! entry whose name is not UTF-8 is shown with the bad bytes as `\xNN`, one
//! whose text is not valid UTF-8 is decoded lossily, and one that is not a
//! readable regular file (a FIFO, a device, a directory, a dangling link),
//! that is larger than [`MAX_SOURCE_BYTES`] (64 MiB) or that leads outside
//! the root is never read ([`pcl_diagnostics::read::read_regular_file`]); each is a [`FileProblem`]
//! the binder reports, and the file takes part in the program (empty when it
//! was not read).

use std::path::{Path, PathBuf};

use pcl_diagnostics::read::MAX_SOURCE_BYTES;
use pcl_diagnostics::{Diagnostic, FileId, Span, TextRange};
use std::collections::{BTreeMap, HashMap};
use std::ops::Bound;

use crate::codes;

/// Why a component source cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// The directory (symbolic links resolved) is not under the root.
    OutsideRoot,
    /// The directory cannot be found or read; the message says why.
    Unreadable(String),
}

/// The `.pp` files of a directory and what was wrong with some of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// `(display name, text)` of every `.pp` entry, sorted by name; an
    /// entry with a problem that was not read has an empty text.
    pub files: Vec<(String, String)>,
    /// The entries with a problem, sorted by name.
    pub problems: Vec<FileProblem>,
}

/// A `.pp` entry of a directory that could not be taken as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileProblem {
    /// The display name (as in [`Listing::files`]).
    pub name: String,
    pub kind: ProblemKind,
}

/// What is wrong with a `.pp` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// Not valid UTF-8: the first bad byte; the rest was decoded lossily.
    InvalidUtf8 { offset: usize },
    /// Not read: not a regular file, or reading failed (the reason).
    Unreadable(String),
    /// Not read: its real path (symbolic links resolved) leaves the root.
    OutsideRoot,
}

impl FileProblem {
    /// The diagnostic for this problem in `file` (the file's id).
    pub fn diagnostic(&self, file: FileId) -> Diagnostic {
        match &self.kind {
            ProblemKind::InvalidUtf8 { offset } => invalid_utf8_diagnostic(file, *offset),
            ProblemKind::Unreadable(reason) => unreadable_file_diagnostic(file, &self.name, reason),
            ProblemKind::OutsideRoot => Diagnostic::error(
                codes::COMPONENT_OUTSIDE_ROOT,
                Span::new(file, TextRange::empty(0)),
                format!(
                    "`{}` is a link to a file outside the program root",
                    pcl_diagnostics::elide_quoted(&self.name)
                ),
            )
            .with_detail("The file was not read; the program is checked without it.")
            .with_help(ROOT_RULE),
        }
    }
}

/// The rule that draws the root, for diagnostics.
/// What marks the root of a project: the first directory at or above a
/// program holding one of these entries is its root.
pub const ROOT_MARKERS: [&str; 4] = ["pcl.toml", "Pulumi.yaml", "Pulumi.yml", ".git"];

/// The root of the program in `dir` (shared by `pcl check` and `pcl lsp`): the nearest directory at or above it
/// (symbolic links resolved) holding one of [`ROOT_MARKERS`] (any kind of
/// entry: a `.git` file of a worktree counts), else `dir` itself. A marker
/// owned by another user than the current one or root marks nothing.
pub fn find_root(dir: &Path) -> PathBuf {
    find_root_noting(dir, &mut Vec::new())
}

/// [`find_root`], adding each marker passed over for its owner to
/// `foreign` (with the owner's uid).
pub fn find_root_noting(dir: &Path, foreign: &mut Vec<(PathBuf, u32)>) -> PathBuf {
    let start = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    for at in start.ancestors() {
        let (marks, in_dir) = markers_in(at);
        foreign.extend(in_dir);
        if marks {
            return at.to_path_buf();
        }
    }
    start
}

/// What [`find_root_in`] learnt of each directory it looked into: the
/// root found from it and the markers passed over on the way for their
/// owner. Programs checked together mostly share their ancestors (a
/// directory of programs, a repository), so a run keeps one cache for all
/// of them: each directory is looked into once, and a program's root is
/// found as soon as the walk reaches a directory seen before. Directories
/// are not watched: a cache lives for one run, never in a long-lived
/// process.
#[derive(Debug, Default)]
pub struct RootCache {
    /// By canonical path (its bytes: canonical paths are equal exactly
    /// when their bytes are).
    dirs: HashMap<std::ffi::OsString, Found, foldhash::fast::RandomState>,
}

/// The root found from a directory.
#[derive(Clone, Debug, Default)]
struct Found {
    /// The nearest directory at or above it holding a marker that marks;
    /// `None`: none does (the root is then the directory the walk started
    /// from).
    root: Option<PathBuf>,
    /// The markers passed over for their owner on the way, in order.
    foreign: Vec<(PathBuf, u32)>,
}

/// Whether `dir` holds a marker that marks, and the markers in it passed
/// over for their owner (in [`ROOT_MARKERS`] order, up to that one).
fn markers_in(dir: &Path) -> (bool, Vec<(PathBuf, u32)>) {
    let mut foreign = Vec::new();
    let mut path = dir.to_path_buf();
    for marker in ROOT_MARKERS {
        path.push(marker);
        if std::fs::symlink_metadata(&path).is_ok() {
            match pcl_diagnostics::read::foreign_owner(&path) {
                Some(uid) => foreign.push((path.clone(), uid)),
                None => return (true, foreign),
            }
        }
        path.pop();
    }
    (false, foreign)
}

/// [`find_root_noting`] through `cache` (see [`RootCache`]): the same
/// root and the same foreign markers, in the same order.
pub fn find_root_in(
    dir: &Path,
    foreign: &mut Vec<(PathBuf, u32)>,
    cache: &mut RootCache,
) -> PathBuf {
    let start = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    // Up from `start` to a directory seen before or one that marks, as
    // the walk of [`find_root_noting`] goes; the directories passed, each
    // with its foreign markers.
    let mut passed: Vec<(&Path, Vec<(PathBuf, u32)>)> = Vec::new();
    let mut known = Found::default();
    for at in start.ancestors() {
        if let Some(found) = cache.dirs.get(at.as_os_str()) {
            known = found.clone();
            break;
        }
        let (marks, in_dir) = markers_in(at);
        if marks {
            known = Found {
                root: Some(at.to_path_buf()),
                foreign: in_dir,
            };
            cache.dirs.insert(at.as_os_str().to_owned(), known.clone());
            break;
        }
        passed.push((at, in_dir));
    }
    // Each directory passed finds what the one above it finds, after its
    // own foreign markers.
    for (at, mut in_dir) in passed.into_iter().rev() {
        in_dir.extend(known.foreign);
        known = Found {
            root: known.root,
            foreign: in_dir,
        };
        cache.dirs.insert(at.as_os_str().to_owned(), known.clone());
    }
    foreign.extend(known.foreign);
    known.root.unwrap_or(start)
}

pub const ROOT_RULE: &str = "The root is the nearest directory at or above the checked program that holds `pcl.toml`, `Pulumi.yaml` or `.git` (or the program's own directory); `pcl check --root DIR` sets it.";

/// The diagnostic for a file whose first bad byte is at `offset`; the
/// range covers the replacement character in the decoded text.
pub fn invalid_utf8_diagnostic(file: FileId, offset: usize) -> Diagnostic {
    let replacement_len = char::REPLACEMENT_CHARACTER.len_utf8();
    let range = TextRange::from_usize(offset..offset + replacement_len);
    Diagnostic::error(
        codes::INVALID_UTF8,
        Span::new(file, range),
        "Invalid character encoding",
    )
    .with_detail("All input files must be UTF-8 encoded; invalid bytes were replaced by U+FFFD.")
}

/// The diagnostic for a program file that could not be read (`reason`).
/// The file takes part in the program as an empty file, so the diagnostic
/// has a file and the (empty) range at its start.
pub fn unreadable_file_diagnostic(file: FileId, name: &str, reason: &str) -> Diagnostic {
    Diagnostic::error(
        codes::UNREADABLE_FILE,
        Span::new(file, TextRange::empty(0)),
        format!(
            "cannot read `{}`: {reason}",
            pcl_diagnostics::elide_quoted(name)
        ),
    )
    .with_detail("The file was skipped; the program is checked without it.")
}

/// `bytes` decoded as UTF-8 (bad sequences replaced by U+FFFD) and the
/// offset of the first bad byte, if any.
pub fn decode_lossy(bytes: Vec<u8>) -> (String, Option<usize>) {
    match String::from_utf8(bytes) {
        Ok(text) => (text, None),
        Err(err) => {
            let first_bad = err.utf8_error().valid_up_to();
            (
                String::from_utf8_lossy(err.as_bytes()).into_owned(),
                Some(first_bad),
            )
        }
    }
}

/// Lists the `.pp` files of a directory.
pub trait FileProvider {
    /// The `.pp` files directly in the directory `dir` (a key, `""` for the
    /// root) as `(path, text)`, sorted by path. `path` is how the file is
    /// named in diagnostics.
    fn read_dir(&self, dir: &str) -> Result<Vec<(String, String)>, String>;

    /// [`FileProvider::read_dir`] with the problems of single files; the
    /// binder uses this one. By default, `read_dir` with no problems.
    fn list_dir(&self, dir: &str) -> Result<Listing, String> {
        Ok(Listing {
            files: self.read_dir(dir)?,
            problems: Vec::new(),
        })
    }

    /// The key of the checked program's directory (`""`: the root).
    fn program_dir(&self) -> String {
        String::new()
    }

    /// The key of the directory `source` names from the directory `base`
    /// (a key). By default lexically, refusing to leave the root.
    fn resolve(&self, base: &str, source: &str) -> Result<String, ResolveError> {
        join_relative(base, source).ok_or(ResolveError::OutsideRoot)
    }
}

/// No files at all: components with a source report an error.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoFiles;

impl FileProvider for NoFiles {
    fn read_dir(&self, dir: &str) -> Result<Vec<(String, String)>, String> {
        Err(format!("cannot read directory `{dir}`: no file provider"))
    }
}

/// Files in memory, keyed by their `/`-separated path relative to the
/// root, which is the program's directory unless
/// [`MemoryFiles::with_program_dir`] puts the program below it.
#[derive(Clone, Debug, Default)]
pub struct MemoryFiles {
    files: BTreeMap<String, String>,
    program_dir: String,
}

impl MemoryFiles {
    pub fn new() -> MemoryFiles {
        MemoryFiles::default()
    }

    /// Adds a file (`dir/name.pp`).
    pub fn add(&mut self, path: impl Into<String>, text: impl Into<String>) {
        self.files.insert(path.into(), text.into());
    }

    pub fn with(mut self, path: impl Into<String>, text: impl Into<String>) -> MemoryFiles {
        self.add(path, text);
        self
    }

    /// The checked program lies in `dir` (a `/`-separated path under the
    /// root), so its components may name directories beside it.
    pub fn with_program_dir(mut self, dir: impl Into<String>) -> MemoryFiles {
        let dir = dir.into();
        self.program_dir = join_relative("", &dir).unwrap_or_default();
        self
    }
}

impl FileProvider for MemoryFiles {
    fn read_dir(&self, dir: &str) -> Result<Vec<(String, String)>, String> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        // The paths under `dir` are one range of the sorted map: a listing
        // costs the directory's subtree, not every file held.
        let out: Vec<(String, String)> = self
            .files
            .range::<str, _>((Bound::Included(prefix.as_str()), Bound::Unbounded))
            .take_while(|(path, _)| path.starts_with(&prefix))
            .filter(|(path, _)| {
                path.strip_prefix(&prefix)
                    .is_some_and(|rest| !rest.contains('/') && rest.ends_with(".pp"))
            })
            .map(|(p, t)| (p.clone(), t.clone()))
            .collect();
        Ok(out)
    }

    fn program_dir(&self) -> String {
        self.program_dir.clone()
    }
}

/// Files on disk under a root directory. Diagnostics name a file by the
/// checked program's display prefix joined with the file's path relative
/// to the program's directory.
#[derive(Clone, Debug)]
pub struct FsFiles {
    /// The root, canonical when it could be canonicalised.
    root: PathBuf,
    /// The key of the checked program's directory.
    program_dir: String,
    display_prefix: String,
}

impl FsFiles {
    /// Files under `dir`, which is both the root and the program's
    /// directory.
    pub fn new(dir: impl Into<PathBuf>) -> FsFiles {
        let dir = dir.into();
        let display_prefix = dir.display().to_string();
        let root = std::fs::canonicalize(&dir).unwrap_or(dir);
        FsFiles {
            root,
            program_dir: String::new(),
            display_prefix,
        }
    }

    /// Files of the program in `program_dir`, under the root `root`; `Err`
    /// (a message) when either cannot be found or the program's directory
    /// (symbolic links resolved) is not under the root.
    pub fn with_root(program_dir: &Path, root: &Path) -> Result<FsFiles, String> {
        let canonical_root = std::fs::canonicalize(root)
            .map_err(|e| format!("cannot read the root `{}`: {e}", root.display()))?;
        let canonical_dir = std::fs::canonicalize(program_dir)
            .map_err(|e| format!("cannot read `{}`: {e}", program_dir.display()))?;
        let key = key_under(&canonical_root, &canonical_dir).ok_or_else(|| {
            format!(
                "`{}` is not under the root `{}`",
                program_dir.display(),
                root.display()
            )
        })?;
        Ok(FsFiles {
            root: canonical_root,
            program_dir: key,
            display_prefix: program_dir.display().to_string(),
        })
    }

    /// Names files `<prefix>/<path relative to the program>` in
    /// diagnostics.
    pub fn with_display_prefix(mut self, prefix: impl Into<String>) -> FsFiles {
        self.display_prefix = prefix.into();
        self
    }

    /// The root (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The display name of a file at `rel`, relative to the program's
    /// directory (`/`-separated; it may start with `..`).
    pub fn display_name(&self, rel: &str) -> String {
        if self.display_prefix.is_empty() || self.display_prefix == "." {
            normalize_display(rel)
        } else {
            normalize_display(&format!(
                "{}/{rel}",
                self.display_prefix.trim_end_matches('/')
            ))
        }
    }

    fn dir_path(&self, key: &str) -> PathBuf {
        if key.is_empty() {
            self.root.clone()
        } else {
            self.root.join(key)
        }
    }

    /// One `.pp` entry of a listing: its text, or the problem. `plain`:
    /// the entry is a regular file (not a link) in a directory whose path
    /// is canonical and under the root, so the path is its real path.
    fn read_entry(&self, path: &Path, plain: bool) -> (String, Option<ProblemKind>) {
        let resolved;
        let canonical = if plain {
            path
        } else {
            resolved = match std::fs::canonicalize(path) {
                Ok(c) => c,
                Err(e) => return (String::new(), Some(ProblemKind::Unreadable(e.to_string()))),
            };
            if key_under(&self.root, &resolved).is_none() {
                return (String::new(), Some(ProblemKind::OutsideRoot));
            }
            &resolved
        };
        // Never open a FIFO or a device (reading it could block forever
        // or never end), nor read more than a program file may hold.
        match pcl_diagnostics::read::read_regular_file(canonical, MAX_SOURCE_BYTES) {
            Ok(bytes) => {
                let (text, bad) = decode_lossy(bytes);
                (text, bad.map(|offset| ProblemKind::InvalidUtf8 { offset }))
            }
            Err(e) => (String::new(), Some(ProblemKind::Unreadable(e.to_string()))),
        }
    }
}

/// Why a `.pp` entry that is not a regular file is not read.
pub const NOT_REGULAR: &str = pcl_diagnostics::read::NOT_REGULAR;

impl FileProvider for FsFiles {
    fn read_dir(&self, dir: &str) -> Result<Vec<(String, String)>, String> {
        Ok(self.list_dir(dir)?.files)
    }

    fn list_dir(&self, dir: &str) -> Result<Listing, String> {
        let path = self.dir_path(dir);
        let entries = std::fs::read_dir(&path)
            .map_err(|e| format!("cannot read directory `{}`: {e}", path.display()))?;
        let rel_dir = relative_key(&self.program_dir, dir);
        // The directory's path is its real path, under the root (the root
        // is canonical): then a regular file in it that is no link is
        // read without resolving its path again.
        let canonical_dir = std::fs::canonicalize(&path).is_ok_and(|c| c == path);
        let mut listing = Listing::default();
        for entry in entries {
            let entry =
                entry.map_err(|e| format!("cannot read directory `{}`: {e}", path.display()))?;
            let file_path = entry.path();
            if file_path.extension().is_none_or(|e| e != "pp") {
                continue;
            }
            let name = entry_name(&entry.file_name());
            let rel = if rel_dir.is_empty() {
                name
            } else {
                format!("{rel_dir}/{name}")
            };
            let shown = self.display_name(&rel);
            let plain = canonical_dir && entry.file_type().is_ok_and(|t| t.is_file());
            let (text, problem) = self.read_entry(&file_path, plain);
            if let Some(kind) = problem {
                listing.problems.push(FileProblem {
                    name: shown.clone(),
                    kind,
                });
            }
            listing.files.push((shown, text));
        }
        listing.files.sort();
        listing.problems.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(listing)
    }

    fn program_dir(&self) -> String {
        self.program_dir.clone()
    }

    fn resolve(&self, base: &str, source: &str) -> Result<String, ResolveError> {
        let joined = self.dir_path(base).join(source);
        match std::fs::canonicalize(&joined) {
            Ok(canonical) => {
                let key = key_under(&self.root, &canonical).ok_or(ResolveError::OutsideRoot)?;
                if !canonical.is_dir() {
                    return Err(ResolveError::Unreadable(format!(
                        "component source `{source}` is not a directory"
                    )));
                }
                Ok(key)
            }
            // A directory that does not exist: outside the root if its
            // spelling already leaves it.
            Err(e) => match join_relative(base, source) {
                None => Err(ResolveError::OutsideRoot),
                Some(_) => Err(ResolveError::Unreadable(format!(
                    "cannot read directory `{source}`: {e}"
                ))),
            },
        }
    }
}

/// A directory entry's name as shown: a byte that is not UTF-8 is written
/// `\xNN` (not replaced by U+FFFD), so that two such names stay apart.
fn entry_name(name: &std::ffi::OsStr) -> String {
    #[cfg(unix)]
    {
        use std::fmt::Write as _;
        use std::os::unix::ffi::OsStrExt;
        let mut out = String::new();
        for chunk in name.as_bytes().utf8_chunks() {
            out.push_str(chunk.valid());
            for byte in chunk.invalid() {
                let _ = write!(out, "\\x{byte:02x}");
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        name.to_string_lossy().into_owned()
    }
}

/// The key of `path` under `root` (both canonical), `None` when it is not
/// under it.
fn key_under(root: &Path, path: &Path) -> Option<String> {
    let rest = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rest
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(parts.join("/"))
}

/// The path of the directory `to` relative to the directory `from` (both
/// keys), `/`-separated, with a leading `..` per level up; `""` when they
/// are the same.
pub fn relative_key(from: &str, to: &str) -> String {
    let from: Vec<&str> = from.split('/').filter(|s| !s.is_empty()).collect();
    let to: Vec<&str> = to.split('/').filter(|s| !s.is_empty()).collect();
    let common = from
        .iter()
        .zip(to.iter())
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from.len().saturating_sub(common);
    let mut parts: Vec<&str> = vec![".."; ups];
    parts.extend(to.iter().skip(common));
    parts.join("/")
}

/// A `/`-separated display path with `.` segments dropped and each `..`
/// that follows a plain segment folded into it.
fn normalize_display(path: &str) -> String {
    let body = path.strip_prefix('/').unwrap_or(path);
    if !body.is_empty() && body.split('/').all(|s| !matches!(s, "" | "." | "..")) {
        // Already normal (the common case): nothing to drop or fold.
        return path.to_string();
    }
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else if joined.is_empty() {
        ".".to_string()
    } else {
        joined
    }
}

/// Joins `base` and `rel` (both `/`-separated, relative to the root) and
/// normalises `.` and `..`; `None` when the result leaves the root.
pub fn join_relative(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    let rel_is_absolute = rel.starts_with('/');
    if rel_is_absolute {
        return None;
    }
    for seg in base.split('/').chain(rel.split('/')) {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One cache serves programs with shared ancestors: the same roots as
    /// looking afresh, and each directory looked into once.
    #[test]
    fn roots_found_through_a_cache_are_the_roots_found_afresh() {
        let tmp = std::env::temp_dir().join(format!("pcl-roots-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let project = tmp.join("project");
        for dir in ["a/x", "a/y", "b", "c/d"] {
            std::fs::create_dir_all(project.join(dir)).unwrap();
        }
        std::fs::write(project.join("Pulumi.yaml"), "name: p\n").unwrap();
        std::fs::write(project.join("c/pcl.toml"), "").unwrap();
        let mut cache = RootCache::default();
        for dir in ["a/x", "a/y", "b", "c/d", "c", "."] {
            let dir = project.join(dir);
            let mut cached = Vec::new();
            let mut fresh = Vec::new();
            assert_eq!(
                find_root_in(&dir, &mut cached, &mut cache),
                find_root_noting(&dir, &mut fresh),
                "{}",
                dir.display()
            );
            assert_eq!(cached, fresh);
        }
        let canonical = std::fs::canonicalize(&project).unwrap();
        // a/x, a/y, a, the project, b, c/d, c: each once.
        assert_eq!(cache.dirs.len(), 7);
        assert_eq!(find_root(&project.join("c/d")), canonical.join("c"));
        let _ = std::fs::remove_dir_all(&tmp);
    }

    #[test]
    fn joins() {
        assert_eq!(join_relative("", "./a").as_deref(), Some("a"));
        assert_eq!(join_relative("a", "../b/./c").as_deref(), Some("b/c"));
        assert_eq!(join_relative("a", "../..").as_deref(), None);
        assert_eq!(join_relative("", "/etc").as_deref(), None);
        assert_eq!(join_relative("a/b", "..").as_deref(), Some("a"));
    }

    #[test]
    fn relative_keys_and_display_names() {
        assert_eq!(relative_key("", ""), "");
        assert_eq!(relative_key("", "a/b"), "a/b");
        assert_eq!(relative_key("envs/dev", "outer_mod"), "../../outer_mod");
        assert_eq!(relative_key("envs/dev", "envs/dev/c"), "c");
        assert_eq!(relative_key("a/b", "a/c"), "../c");
        assert_eq!(normalize_display("x/a/b/../../outer/m.pp"), "x/outer/m.pp");
        assert_eq!(normalize_display("./../m.pp"), "../m.pp");
        assert_eq!(normalize_display("../../m.pp"), "../../m.pp");
        assert_eq!(normalize_display("/abs/p/../m.pp"), "/abs/m.pp");
        let files = FsFiles::new("envs").with_display_prefix("proj/envs");
        assert_eq!(files.display_name("../mod/m.pp"), "proj/mod/m.pp");
        assert_eq!(
            FsFiles::new(".")
                .with_display_prefix(".")
                .display_name("c/m.pp"),
            "c/m.pp"
        );
    }

    #[test]
    fn memory_program_dirs_resolve_lexically() {
        let files = MemoryFiles::new().with_program_dir("./envs/dev/");
        assert_eq!(files.program_dir(), "envs/dev");
        assert_eq!(
            files.resolve("envs/dev", "../../mod"),
            Ok("mod".to_string())
        );
        assert_eq!(
            files.resolve("envs/dev", "../../../x"),
            Err(ResolveError::OutsideRoot)
        );
    }

    #[test]
    fn memory_lists_one_level() {
        let files = MemoryFiles::new()
            .with("main.pp", "a = 1")
            .with("c/x.pp", "b = 1")
            .with("c/d/y.pp", "c = 1")
            .with("c/readme.md", "");
        let names: Vec<String> = files
            .read_dir("c")
            .unwrap_or_default()
            .into_iter()
            .map(|f| f.0)
            .collect();
        assert_eq!(names, vec!["c/x.pp".to_string()]);
        let root: Vec<String> = files
            .read_dir("")
            .unwrap_or_default()
            .into_iter()
            .map(|f| f.0)
            .collect();
        assert_eq!(root, vec!["main.pp".to_string()]);
    }
}
