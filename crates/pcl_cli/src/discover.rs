//! `pcl check --recursive`: every program under a directory.
//!
//! A program is each directory holding `.pp` files, and each `Pulumi.yaml`
//! (or `Pulumi.yml`) project with `runtime: pcl` (checked from its `main`
//! directory by [`crate::inputs`]; the walk does not descend into such a
//! project, so its `main` directory is not found a second time). Hidden
//! directories (a name starting with `.`), `target` and `node_modules` are
//! skipped, and symbolic links to directories are not followed, so a link
//! loop cannot make the walk endless. The walk keeps its own stack (no
//! recursion, whatever the depth of the tree) and returns the programs
//! sorted by path, so the output does not depend on the file system's
//! order. A `Pulumi.yaml` owned by another user than the current one or
//! root is passed over (and listed in [`Walk::foreign`]); one that is not a
//! regular file is never opened, and its directory counts as a program,
//! whose check then says why it cannot be read.

use std::fs;
use std::path::{Path, PathBuf};

/// Directory names never walked into.
pub const SKIPPED: &[&str] = &["target", "node_modules"];

/// What a walk found.
#[derive(Debug, Default)]
pub struct Walk {
    /// The programs, sorted.
    pub found: Vec<PathBuf>,
    /// Directories that could not be read, and why (the walk goes on past
    /// them), sorted.
    pub errors: Vec<(PathBuf, String)>,
    /// Project files passed over because another user than the current
    /// one or root owns them, with the owner's uid.
    pub foreign: Vec<(PathBuf, u32)>,
}

/// The programs under `root`.
pub fn programs(root: &Path) -> Walk {
    let mut walk = Walk::default();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e) => {
                walk.errors.push((dir, e.to_string()));
                continue;
            }
        };
        let mut subdirs = Vec::new();
        let mut has_pp = false;
        let mut has_project = false;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !name.starts_with('.') && !SKIPPED.contains(&name.as_ref()) {
                    subdirs.push(entry.path());
                }
            } else if name.ends_with(".pp") {
                has_pp = true;
            } else if name == "Pulumi.yaml" || name == "Pulumi.yml" {
                let file = entry.path();
                if let Some(uid) = pcl_diagnostics::read::foreign_owner(&file) {
                    walk.foreign.push((file, uid));
                    continue;
                }
                has_project |= is_pcl_project(&file);
            }
        }
        if has_project {
            walk.found.push(dir);
            continue;
        }
        if has_pp {
            walk.found.push(dir);
        }
        stack.extend(subdirs);
    }
    walk.found.sort();
    walk.errors.sort();
    walk.foreign.sort();
    walk
}

/// Whether the project file says `runtime: pcl`, or cannot be read (a
/// FIFO, a device, a file too large): checking the directory then says
/// why, once. It is never opened when it is not a regular file, so it
/// cannot block the walk.
fn is_pcl_project(file: &Path) -> bool {
    match crate::inputs::read_project(file) {
        Ok(project) => project.runtime.as_deref() == Some("pcl"),
        Err(e) => !e.is_not_found(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_programs_and_projects_and_skips_the_rest() {
        let root = std::env::temp_dir().join(format!("pcl-discover-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let write = |rel: &str, text: &str| {
            let path = root.join(rel);
            if let Some(parent) = path.parent() {
                fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
            }
            fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
        };
        write("a/main.pp", "");
        write("a/nested/b/x.pp", "");
        write("proj/Pulumi.yaml", "runtime: pcl\nmain: src\n");
        write("proj/src/main.pp", "");
        write("node/Pulumi.yaml", "runtime: nodejs\n");
        write("node/index.pp", "");
        write(".hidden/x.pp", "");
        write("target/x.pp", "");
        write("a/node_modules/x.pp", "");
        write("empty/readme.md", "");
        let walk = programs(&root);
        let (found, errors) = (walk.found, walk.errors);
        let rel: Vec<String> = found
            .iter()
            .map(|p| p.strip_prefix(&root).unwrap_or(p).display().to_string())
            .collect();
        assert_eq!(rel, ["a", "a/nested/b", "node", "proj"]);
        assert!(errors.is_empty());
        let _ = fs::remove_dir_all(&root);
    }

    /// A `Pulumi.yaml` that is a FIFO or a link to a device is never
    /// opened: its directory is a program, whose check says why.
    #[cfg(unix)]
    #[test]
    fn special_project_files_are_programs_never_read() {
        let root = std::env::temp_dir().join(format!("pcl-discover-fifo-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("fifo/sub")).unwrap_or_else(|e| panic!("{e}"));
        fs::create_dir_all(root.join("zero")).unwrap_or_else(|e| panic!("{e}"));
        fs::write(root.join("fifo/sub/x.pp"), "").unwrap_or_else(|e| panic!("{e}"));
        let made = std::process::Command::new("mkfifo")
            .arg(root.join("fifo/Pulumi.yaml"))
            .status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: mkfifo is not available");
            return;
        }
        std::os::unix::fs::symlink("/dev/zero", root.join("zero/Pulumi.yaml"))
            .unwrap_or_else(|e| panic!("{e}"));
        let walk = programs(&root);
        assert_eq!(walk.found, [root.join("fifo"), root.join("zero")]);
        assert!(walk.errors.is_empty() && walk.foreign.is_empty());
        let _ = fs::remove_dir_all(&root);
    }

    #[test]
    fn deep_trees_do_not_recurse() {
        let root = std::env::temp_dir().join(format!("pcl-discover-deep-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let mut dir = root.clone();
        for _ in 0..200 {
            dir = dir.join("d");
        }
        fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        fs::write(dir.join("x.pp"), "").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(programs(&root).found, [dir]);
        let _ = fs::remove_dir_all(&root);
    }
}
