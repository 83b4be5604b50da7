//! Where component sources come from: the [`FileProvider`] trait, the file
//! system ([`FsFiles`]) and memory ([`MemoryFiles`]).
//!
//! Paths are `/`-separated and relative to the program root; the binder
//! normalises `.` and `..` itself and never asks for a path outside the
//! root, so a provider need not defend against escapes.

use std::path::PathBuf;

use indexmap::IndexMap;

/// Lists the `.pp` files of a directory.
pub trait FileProvider {
    /// The `.pp` files directly in `dir` (relative to the program root,
    /// `""` for the root itself) as `(path, text)`, sorted by path. `path` is
    /// how the file is named in diagnostics.
    fn read_dir(&self, dir: &str) -> Result<Vec<(String, String)>, String>;
}

/// No files at all: components with a source report an error.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoFiles;

impl FileProvider for NoFiles {
    fn read_dir(&self, dir: &str) -> Result<Vec<(String, String)>, String> {
        Err(format!("cannot read directory '{dir}': no file provider"))
    }
}

/// Files in memory, keyed by their `/`-separated path relative to the
/// program root.
#[derive(Clone, Debug, Default)]
pub struct MemoryFiles {
    files: IndexMap<String, String>,
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
}

impl FileProvider for MemoryFiles {
    fn read_dir(&self, dir: &str) -> Result<Vec<(String, String)>, String> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let mut out: Vec<(String, String)> = self
            .files
            .iter()
            .filter(|(path, _)| {
                path.strip_prefix(&prefix)
                    .is_some_and(|rest| !rest.contains('/') && rest.ends_with(".pp"))
            })
            .map(|(p, t)| (p.clone(), t.clone()))
            .collect();
        out.sort();
        Ok(out)
    }
}

/// Files on disk under a root directory. Diagnostics name files by
/// `display_prefix` joined with the relative path.
#[derive(Clone, Debug)]
pub struct FsFiles {
    root: PathBuf,
    display_prefix: String,
}

impl FsFiles {
    pub fn new(root: impl Into<PathBuf>) -> FsFiles {
        let root = root.into();
        let display_prefix = root.display().to_string();
        FsFiles {
            root,
            display_prefix,
        }
    }

    /// Names files `<prefix>/<relative path>` in diagnostics.
    pub fn with_display_prefix(mut self, prefix: impl Into<String>) -> FsFiles {
        self.display_prefix = prefix.into();
        self
    }

    /// The display name of a file at `rel` (relative to the root).
    pub fn display_name(&self, rel: &str) -> String {
        if self.display_prefix.is_empty() || self.display_prefix == "." {
            rel.to_string()
        } else {
            format!("{}/{rel}", self.display_prefix.trim_end_matches('/'))
        }
    }
}

impl FileProvider for FsFiles {
    fn read_dir(&self, dir: &str) -> Result<Vec<(String, String)>, String> {
        let path = if dir.is_empty() {
            self.root.clone()
        } else {
            self.root.join(dir)
        };
        let entries = std::fs::read_dir(&path)
            .map_err(|e| format!("cannot read directory '{}': {e}", path.display()))?;
        let mut out = Vec::new();
        for entry in entries {
            let entry =
                entry.map_err(|e| format!("cannot read directory '{}': {e}", path.display()))?;
            let file_path = entry.path();
            let is_pp = file_path.extension().is_some_and(|e| e == "pp") && file_path.is_file();
            if !is_pp {
                continue;
            }
            let Some(name) = file_path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let rel = if dir.is_empty() {
                name.to_string()
            } else {
                format!("{dir}/{name}")
            };
            let text = std::fs::read_to_string(&file_path)
                .map_err(|e| format!("cannot read '{}': {e}", file_path.display()))?;
            out.push((self.display_name(&rel), text));
        }
        out.sort();
        Ok(out)
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

    #[test]
    fn joins() {
        assert_eq!(join_relative("", "./a").as_deref(), Some("a"));
        assert_eq!(join_relative("a", "../b/./c").as_deref(), Some("b/c"));
        assert_eq!(join_relative("a", "../..").as_deref(), None);
        assert_eq!(join_relative("", "/etc").as_deref(), None);
        assert_eq!(join_relative("a/b", "..").as_deref(), Some("a"));
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
