//! Finding and reading inputs.
//!
//! For `pcl parse`, a path argument is either a file (taken as is, whatever
//! its extension) or a directory, which stands for its `*.pp` files in
//! sorted order (not recursive). For `pcl check`, each argument is one
//! program ([`read_program`]): a file, a directory (with `Pulumi.yaml`
//! discovery), or `-` for standard input. Files are read as bytes and
//! decoded lossily so that a file with bad UTF-8 still gets parsed; the
//! first bad byte is reported with the `invalid-utf8` code. A `*.pp` entry
//! of a program directory that is not a readable regular file (a dangling
//! or looping symbolic link, a directory, a FIFO) is never opened: it is an
//! `unreadable-file` error and the rest of the program is still checked. A
//! FIFO or device named on the command line is refused the same way. Every
//! file, and standard input, is read through `pcl_diagnostics::read`: a
//! regular file of at most 64 MiB (a project file: 1 MiB), the size checked
//! while reading.
//!
//! Each program has a **root** ([`find_root`], or `--root DIR`): the
//! nearest directory at or above the program's directory that holds
//! `pcl.toml`, `Pulumi.yaml`, `Pulumi.yml` or a `.git` entry, else the
//! program's own directory. A marker or a `Pulumi.yaml` owned by another
//! user than the current one or root is passed over (git's
//! `safe.directory` rule) and listed in [`ProgramInput::foreign`]. Its files and components are read through
//! [`FsFiles`] under that root (symbolic links resolved): a `.pp` entry or
//! a component directory whose real path leaves it is
//! `component-outside-root`.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use pcl_binder::files::{FileProblem, ProblemKind, RootCache, NOT_REGULAR};
use pcl_binder::{FileProvider, FsFiles};

use pcl_diagnostics::read::{
    foreign_owner, read_bounded, read_regular_file, ReadError, MAX_SETTINGS_BYTES, MAX_SOURCE_BYTES,
};
use pcl_diagnostics::Code;

pub use pcl_binder::files::{invalid_utf8_diagnostic, unreadable_file_diagnostic};

/// The diagnostic code for a file that is not valid UTF-8.
pub const INVALID_UTF8: Code = pcl_binder::codes::INVALID_UTF8;

/// Expands the path arguments into the list of files to read. A path that
/// cannot be inspected is returned as an error with its message.
pub fn expand_paths(paths: &[PathBuf]) -> Vec<Result<PathBuf, (PathBuf, io::Error)>> {
    let mut files = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => match list_pp_files(path) {
                Ok(found) => {
                    files.extend(found.files.into_iter().map(Ok));
                    files.extend(
                        found
                            .skipped
                            .into_iter()
                            .map(|(p, why)| Err((p, io::Error::other(why)))),
                    );
                }
                Err(err) => files.push(Err((path.clone(), err))),
            },
            Ok(meta) if meta.is_file() => files.push(Ok(path.clone())),
            Ok(_) => files.push(Err((path.clone(), io::Error::other(NOT_REGULAR)))),
            Err(err) => files.push(Err((path.clone(), err))),
        }
    }
    files
}

/// The `*.pp` entries of a directory.
struct Listing {
    /// Regular files (symbolic links followed), sorted by name.
    files: Vec<PathBuf>,
    /// `*.pp` entries that cannot be read as files (a dangling or looping
    /// symbolic link, a directory, a FIFO, a socket) and why, sorted. They
    /// are never opened, so a FIFO cannot block the reader.
    skipped: Vec<(PathBuf, String)>,
}

/// The `*.pp` entries directly inside `dir`.
fn list_pp_files(dir: &Path) -> io::Result<Listing> {
    let mut listing = Listing {
        files: Vec::new(),
        skipped: Vec::new(),
    };
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if path.extension().is_none_or(|ext| ext != "pp") {
            continue;
        }
        match fs::metadata(&path) {
            Ok(meta) if meta.is_file() => listing.files.push(path),
            Ok(_) => listing.skipped.push((path, NOT_REGULAR.to_string())),
            Err(e) => listing.skipped.push((path, e.to_string())),
        }
    }
    listing.files.sort();
    listing.skipped.sort();
    Ok(listing)
}

/// The diagnostic code for a `*.pp` entry of a program directory that
/// cannot be read.
pub const UNREADABLE_FILE: Code = pcl_binder::codes::UNREADABLE_FILE;

/// A file's text after lossy decoding, and the byte offset of the first
/// invalid UTF-8 sequence, if any.
pub struct Decoded {
    pub text: String,
    pub first_bad_byte: Option<usize>,
}

/// Decodes `bytes` as UTF-8, replacing bad sequences with U+FFFD.
pub fn decode(bytes: Vec<u8>) -> Decoded {
    let (text, first_bad_byte) = pcl_binder::files::decode_lossy(bytes);
    Decoded {
        text,
        first_bad_byte,
    }
}

pub use pcl_binder::files::{find_root, find_root_in, find_root_noting, ROOT_MARKERS};

/// The files of the program in `dir`, shown with `prefix`, under `root`
/// (or the root found from `dir`, through `roots`).
fn program_files(
    dir: &Path,
    prefix: String,
    root: Option<&Path>,
    foreign: &mut Vec<(PathBuf, u32)>,
    roots: &mut RootCache,
) -> Result<FsFiles, String> {
    let found;
    let root = match root {
        Some(r) => r,
        None => {
            found = find_root_in(dir, foreign, roots);
            &found
        }
    };
    Ok(FsFiles::with_root(dir, root)?.with_display_prefix(prefix))
}

/// One program to check, read into memory.
pub struct ProgramInput {
    /// The program's path as shown (relative to the current directory),
    /// `-`'s `--stdin-filename`, or `<stdin>`.
    pub path: String,
    /// `(display name, text)` of each file, sorted by name.
    pub sources: Vec<(String, String)>,
    /// Files that were not valid UTF-8 (decoded lossily), `*.pp` entries
    /// that could not be read or lead outside the root (each also in
    /// `sources`, empty), by display name.
    pub problems: Vec<FileProblem>,
    /// Where components are read from.
    pub files: FsFiles,
    /// Whether this is one file checked alone (a file PATH, or `-` with
    /// `--stdin-filename`): the other `.pp` files of its directory are then
    /// its siblings (`pcl_binder::siblings`).
    pub alone: bool,
    /// Project files and root markers passed over because another user
    /// owns them, with the owner's uid.
    pub foreign: Vec<(PathBuf, u32)>,
}

/// What an argument of `pcl check` stands for.
pub enum Source<'a> {
    /// `-`: standard input, already read, with the name to show.
    Stdin {
        text: &'a [u8],
        name: Option<&'a str>,
    },
    /// A file or directory.
    Path(&'a Path),
}

/// Reads all of standard input, at most [`MAX_SOURCE_BYTES`].
pub fn read_stdin() -> Result<Vec<u8>, ReadError> {
    read_bounded(io::stdin().lock(), MAX_SOURCE_BYTES)
}

/// Reads a program file named on the command line: a regular file of at
/// most [`MAX_SOURCE_BYTES`]; the error is the message to show.
pub fn read_source_file(path: &Path, shown: &str) -> Result<Vec<u8>, String> {
    read_regular_file(path, MAX_SOURCE_BYTES).map_err(|e| format!("cannot read `{shown}`: {e}"))
}

/// Reads the program `source` stands for, under the root found from it;
/// `Err` is a message for an input that cannot be read at all.
pub fn read_program(source: Source<'_>, cwd: Option<&Path>) -> Result<ProgramInput, String> {
    read_program_in(source, cwd, None)
}

/// [`read_program`] with the root `root` (`--root`) when given.
pub fn read_program_in(
    source: Source<'_>,
    cwd: Option<&Path>,
    root: Option<&Path>,
) -> Result<ProgramInput, String> {
    read_program_cached(source, cwd, root, &mut RootCache::default())
}

/// [`read_program_in`] finding roots through `roots`, which the programs
/// of one run share (each directory above them is looked into once).
pub fn read_program_cached(
    source: Source<'_>,
    cwd: Option<&Path>,
    root: Option<&Path>,
    roots: &mut RootCache,
) -> Result<ProgramInput, String> {
    match source {
        Source::Stdin { text, name } => {
            let shown = match name {
                Some(name) => display_path(Path::new(name), cwd),
                None => "<stdin>".to_string(),
            };
            let dir = name
                .and_then(|n| Path::new(n).parent())
                .filter(|p| !p.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            let mut input = one_file(shown, text.to_vec(), &dir, root, Vec::new(), roots)?;
            input.alone = name.is_some();
            Ok(input)
        }
        Source::Path(path) => read_path(path, cwd, root, roots),
    }
}

fn read_path(
    path: &Path,
    cwd: Option<&Path>,
    root: Option<&Path>,
    roots: &mut RootCache,
) -> Result<ProgramInput, String> {
    let shown = display_path(path, cwd);
    let meta = fs::metadata(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    let mut foreign = Vec::new();
    if !meta.is_dir() {
        return read_file(path, cwd, root, foreign, roots);
    }
    let program_dir = match project_main(path, cwd, &mut foreign)? {
        Some(main) => {
            let shown_main = display_path(&main, cwd);
            match fs::metadata(&main) {
                Ok(m) if m.is_dir() => main,
                Ok(_) => return read_file(&main, cwd, root, foreign, roots),
                Err(e) => {
                    return Err(format!(
                        "cannot read `{shown_main}` (the `main` of `{shown}/Pulumi.yaml`): {e}"
                    ))
                }
            }
        }
        None => path.to_path_buf(),
    };
    let shown = display_path(&program_dir, cwd);
    let files = program_files(&program_dir, shown.clone(), root, &mut foreign, roots)
        .map_err(|e| format!("cannot check `{shown}`: {e}"))?;
    let listing = files
        .list_dir(&files.program_dir())
        .map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if listing.files.is_empty() {
        return Err(format!("no .pp files in `{shown}`"));
    }
    Ok(ProgramInput {
        path: shown,
        sources: listing.files,
        problems: listing.problems,
        files,
        alone: false,
        foreign,
    })
}

/// A one-file program; its components are read relative to its directory.
fn read_file(
    path: &Path,
    cwd: Option<&Path>,
    root: Option<&Path>,
    foreign: Vec<(PathBuf, u32)>,
    roots: &mut RootCache,
) -> Result<ProgramInput, String> {
    let shown = display_path(path, cwd);
    // Never open a FIFO or a device, nor read past the limit.
    let bytes = read_source_file(path, &shown)?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    one_file(shown, bytes, &parent, root, foreign, roots)
}

fn one_file(
    shown: String,
    bytes: Vec<u8>,
    dir: &Path,
    root: Option<&Path>,
    mut foreign: Vec<(PathBuf, u32)>,
    roots: &mut RootCache,
) -> Result<ProgramInput, String> {
    let prefix = match Path::new(&shown).parent() {
        Some(p) => p.display().to_string(),
        None => String::new(),
    };
    let files = match program_files(dir, prefix.clone(), root, &mut foreign, roots) {
        Ok(files) => files,
        // Standard input named into a directory that does not exist: no
        // component can be read, but the text is checked.
        Err(_) if fs::symlink_metadata(dir).is_err() => {
            FsFiles::new(dir).with_display_prefix(prefix)
        }
        Err(e) => return Err(format!("cannot check `{shown}`: {e}")),
    };
    let decoded = decode(bytes);
    let problems = decoded
        .first_bad_byte
        .map(|offset| FileProblem {
            name: shown.clone(),
            kind: ProblemKind::InvalidUtf8 { offset },
        })
        .into_iter()
        .collect();
    Ok(ProgramInput {
        path: shown.clone(),
        sources: vec![(shown, decoded.text)],
        problems,
        files,
        alone: true,
        foreign,
    })
}

/// The program directory named by `dir/Pulumi.yaml` (or `Pulumi.yml`)
/// when it declares `runtime: pcl`: `dir` joined with its `main`, or `dir`
/// itself. `None` when there is no such project file, or when another user
/// than the current one or root owns it (added to `foreign`). A project
/// file that is not a regular file of at most [`MAX_SETTINGS_BYTES`] is an
/// error.
fn project_main(
    dir: &Path,
    cwd: Option<&Path>,
    foreign: &mut Vec<(PathBuf, u32)>,
) -> Result<Option<PathBuf>, String> {
    for name in ["Pulumi.yaml", "Pulumi.yml"] {
        let file = dir.join(name);
        // Links followed: a dangling link is no file.
        if fs::metadata(&file).is_err() {
            continue;
        }
        if let Some(uid) = foreign_owner(&file) {
            foreign.push((file, uid));
            continue;
        }
        let project = read_project(&file)
            .map_err(|e| format!("cannot read `{}`: {e}", display_path(&file, cwd)))?;
        if project.runtime.as_deref() != Some("pcl") {
            return Ok(None);
        }
        return Ok(Some(match project.main {
            Some(main) if !main.is_empty() => dir.join(main),
            _ => dir.to_path_buf(),
        }));
    }
    Ok(None)
}

/// Reads a `Pulumi.yaml`: a regular file of at most
/// [`MAX_SETTINGS_BYTES`] (bad UTF-8 decoded lossily).
pub fn read_project(file: &Path) -> Result<Project, ReadError> {
    let bytes = read_regular_file(file, MAX_SETTINGS_BYTES)?;
    Ok(parse_project(&String::from_utf8_lossy(&bytes)))
}

/// The two settings of a `Pulumi.yaml` that `check` uses.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Project {
    pub runtime: Option<String>,
    pub main: Option<String>,
}

/// Reads `runtime` (either `runtime: pcl` or a `runtime:` block with a
/// `name: pcl` entry) and `main` from the top level of a `Pulumi.yaml`.
/// Only plain and quoted scalars are understood, which is all these keys
/// hold in practice.
pub fn parse_project(text: &str) -> Project {
    let mut project = Project::default();
    let mut in_runtime_block = false;
    for line in text.lines() {
        let indented = line.starts_with(' ') || line.starts_with('\t');
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if indented {
            if in_runtime_block {
                if let Some(value) = trimmed.strip_prefix("name:") {
                    project.runtime = Some(scalar(value));
                }
            }
            continue;
        }
        in_runtime_block = false;
        if let Some(value) = trimmed.strip_prefix("runtime:") {
            let value = scalar(value);
            if value.is_empty() {
                in_runtime_block = true;
            } else {
                project.runtime = Some(value);
            }
        } else if let Some(value) = trimmed.strip_prefix("main:") {
            project.main = Some(scalar(value));
        }
    }
    project
}

/// A YAML scalar without its quotes or a trailing comment.
fn scalar(raw: &str) -> String {
    let raw = raw.trim();
    for quote in ['"', '\''] {
        if let Some(rest) = raw.strip_prefix(quote) {
            if let Some(end) = rest.find(quote) {
                return rest.get(..end).unwrap_or_default().to_string();
            }
        }
    }
    let value = match raw.find(" #") {
        Some(i) => raw.get(..i).unwrap_or(raw),
        None => raw,
    };
    value.trim().to_string()
}

/// `path` as shown in diagnostics: relative to `cwd` when it lies under
/// it, with `.` components and resolvable `..` components removed, control
/// characters and bytes that are not UTF-8 escaped
/// ([`pcl_diagnostics::escape_path`]).
pub fn display_path(path: &Path, cwd: Option<&Path>) -> String {
    let relative = match cwd {
        Some(cwd) if path.is_absolute() => path.strip_prefix(cwd).unwrap_or(path),
        _ => path,
    };
    let mut parts: Vec<Component<'_>> = Vec::new();
    for component in relative.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => match parts.last() {
                Some(Component::Normal(_)) => {
                    parts.pop();
                }
                _ => parts.push(component),
            },
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        return ".".to_string();
    }
    pcl_diagnostics::escape_path(&parts.iter().collect::<PathBuf>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_reports_first_bad_byte() {
        let decoded = decode(b"ab\xffc\xfe".to_vec());
        assert_eq!(decoded.first_bad_byte, Some(2));
        assert_eq!(decoded.text, "ab\u{fffd}c\u{fffd}");
        let clean = decode(b"abc".to_vec());
        assert_eq!(clean.first_bad_byte, None);
    }

    #[test]
    fn reads_pulumi_yaml() {
        let p = parse_project("name: x\nruntime: pcl\nmain: ./src # the code\n");
        assert_eq!(p.runtime.as_deref(), Some("pcl"));
        assert_eq!(p.main.as_deref(), Some("./src"));
        let p = parse_project("runtime:\n  name: \"pcl\"\n  options: {}\ndescription: d\n");
        assert_eq!(p.runtime.as_deref(), Some("pcl"));
        assert_eq!(p.main, None);
        let p = parse_project("runtime: nodejs\n");
        assert_eq!(p.runtime.as_deref(), Some("nodejs"));
    }

    #[test]
    fn display_paths_are_relative_and_normal() {
        let cwd = Path::new("/srv/project");
        assert_eq!(
            display_path(Path::new("/srv/project/examples/web"), Some(cwd)),
            "examples/web"
        );
        assert_eq!(display_path(Path::new("./a/./b/../c"), Some(cwd)), "a/c");
        assert_eq!(display_path(Path::new("../x"), Some(cwd)), "../x");
        assert_eq!(display_path(Path::new("."), Some(cwd)), ".");
        assert_eq!(display_path(Path::new("/other/x"), Some(cwd)), "/other/x");
    }
}
