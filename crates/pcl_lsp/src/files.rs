//! The files a check reads: `pcl check`'s file layer
//! ([`pcl_binder::FsFiles`]: the program's root, directories keyed by
//! their canonical path, links followed and checked against the root,
//! regular files only) with the documents open in the editor on top,
//! keyed by their canonical path too.
//!
//! The root is found as `pcl check` finds it ([`find_root`]): the nearest
//! directory at or above the program's that holds `pcl.toml`,
//! `Pulumi.yaml`, `Pulumi.yml` or `.git`, else the program's directory. A
//! `.pp` entry or a component directory whose real path leaves the root is
//! never read (`component-outside-root`), open in the editor or not, and
//! two spellings of one directory (`./l1`, `./l2`, links to `.`) are one
//! directory, bound once.

use std::cell::Cell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use pcl_binder::files::{Listing, ProblemKind, ResolveError};
use pcl_binder::{FileProvider, FsFiles};

pub(crate) use pcl_binder::files::find_root;

/// The real path of a file that may not exist yet: canonical when it
/// does, else its directory's canonical path joined with its name.
pub(crate) fn real_path(path: &Path) -> Option<PathBuf> {
    if let Ok(real) = std::fs::canonicalize(path) {
        return Some(real);
    }
    let dir = std::fs::canonicalize(path.parent()?).ok()?;
    Some(dir.join(path.file_name()?))
}

/// The files of one check: the disk as `pcl check` reads it, with the
/// open documents' texts over it.
pub(crate) struct Overlay<'a> {
    fs: FsFiles,
    /// The text of each open document, by real path.
    open: &'a HashMap<PathBuf, &'a str>,
    /// Directories listed (the program's and its components').
    pub(crate) dir_reads: Cell<u64>,
}

impl<'a> Overlay<'a> {
    /// The files of the program in the canonical directory `dir`; `None`
    /// when it cannot be read.
    pub(crate) fn new(dir: &Path, open: &'a HashMap<PathBuf, &'a str>) -> Option<Overlay<'a>> {
        let root = find_root(dir);
        let fs = FsFiles::with_root(dir, &root).ok()?.with_display_prefix("");
        Some(Overlay {
            fs,
            open,
            dir_reads: Cell::new(0),
        })
    }

    /// The canonical directory of a key.
    fn dir_path(&self, key: &str) -> PathBuf {
        if key.is_empty() {
            self.fs.root().to_path_buf()
        } else {
            self.fs.root().join(key)
        }
    }
}

impl FileProvider for Overlay<'_> {
    fn read_dir(&self, dir: &str) -> Result<Vec<(String, String)>, String> {
        Ok(self.list_dir(dir)?.files)
    }

    fn list_dir(&self, key: &str) -> Result<Listing, String> {
        self.dir_reads.set(self.dir_reads.get() + 1);
        let dir = self.dir_path(key);
        let mut listing = self.fs.list_dir(key)?;
        // Entries open in the editor: their buffer, unless the entry was
        // refused (outside the root, not a regular file).
        for (shown, text) in &mut listing.files {
            let Some(name) = shown.rsplit('/').next() else {
                continue;
            };
            let refused = listing
                .problems
                .iter()
                .any(|p| &p.name == shown && !matches!(p.kind, ProblemKind::InvalidUtf8 { .. }));
            if refused || self.open.is_empty() {
                continue;
            }
            let Some(real) = std::fs::canonicalize(dir.join(name)).ok() else {
                continue;
            };
            if let Some(open) = self.open.get(&real) {
                (*open).clone_into(text);
                listing.problems.retain(|p| &p.name != shown);
            }
        }
        // Open documents of this directory not on disk yet.
        let rel_dir = pcl_binder::files::relative_key(&self.fs.program_dir(), key);
        let mut added = false;
        for (path, text) in self.open {
            if path.parent() != Some(dir.as_path()) || path.extension().is_none_or(|e| e != "pp") {
                continue;
            }
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let rel = if rel_dir.is_empty() {
                name.to_string()
            } else {
                format!("{rel_dir}/{name}")
            };
            let shown = self.fs.display_name(&rel);
            if listing.files.iter().all(|(n, _)| *n != shown) {
                listing.files.push((shown, (*text).to_string()));
                added = true;
            }
        }
        if added {
            listing.files.sort();
        }
        Ok(listing)
    }

    fn program_dir(&self) -> String {
        self.fs.program_dir()
    }

    fn resolve(&self, base: &str, source: &str) -> Result<String, ResolveError> {
        self.fs.resolve(base, source)
    }
}
