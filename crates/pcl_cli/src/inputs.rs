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
//! FIFO or device named on the command line is refused the same way.

use std::fs;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};

use pcl_binder::FsFiles;

use pcl_diagnostics::{Code, Diagnostic, FileId, Span, TextRange};

/// The diagnostic code for a file that is not valid UTF-8.
pub const INVALID_UTF8: Code = Code("invalid-utf8");

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

/// Why a `*.pp` entry that is not a regular file is skipped.
const NOT_REGULAR: &str = "not a regular file";

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
pub const UNREADABLE_FILE: Code = Code("unreadable-file");

/// The diagnostic for a program file that could not be read (`reason`).
/// The file takes part in the program as an empty file, so the diagnostic
/// has a file and the (empty) range at its start.
pub fn unreadable_file_diagnostic(file: FileId, name: &str, reason: &str) -> Diagnostic {
    Diagnostic::error(
        UNREADABLE_FILE,
        Span::new(file, TextRange::empty(0)),
        format!("cannot read `{name}`: {reason}"),
    )
    .with_detail("The file was skipped; the program is checked without it.")
}

/// A file's text after lossy decoding, and the byte offset of the first
/// invalid UTF-8 sequence, if any.
pub struct Decoded {
    pub text: String,
    pub first_bad_byte: Option<usize>,
}

/// Decodes `bytes` as UTF-8, replacing bad sequences with U+FFFD.
pub fn decode(bytes: Vec<u8>) -> Decoded {
    match String::from_utf8(bytes) {
        Ok(text) => Decoded {
            text,
            first_bad_byte: None,
        },
        Err(err) => {
            let first_bad_byte = err.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(err.as_bytes()).into_owned();
            Decoded {
                text,
                first_bad_byte: Some(first_bad_byte),
            }
        }
    }
}

/// The diagnostic for a file whose first bad byte is at `offset`; the range
/// covers the replacement character in the decoded text.
pub fn invalid_utf8_diagnostic(file: FileId, offset: usize) -> Diagnostic {
    let replacement_len = char::REPLACEMENT_CHARACTER.len_utf8();
    let range = TextRange::from_usize(offset..offset + replacement_len);
    Diagnostic::error(
        INVALID_UTF8,
        Span::new(file, range),
        "Invalid character encoding",
    )
    .with_detail("All input files must be UTF-8 encoded; invalid bytes were replaced by U+FFFD.")
}

/// One program to check, read into memory.
pub struct ProgramInput {
    /// The program's path as shown (relative to the current directory),
    /// `-`'s `--stdin-filename`, or `<stdin>`.
    pub path: String,
    /// `(display name, text)` of each file, sorted by name.
    pub sources: Vec<(String, String)>,
    /// Files that were not valid UTF-8: display name and first bad byte.
    pub bad_utf8: Vec<(String, usize)>,
    /// `*.pp` entries that could not be read: display name and reason.
    /// Each is also in `sources`, empty.
    pub unreadable: Vec<(String, String)>,
    /// Where components are read from.
    pub files: FsFiles,
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

/// Reads all of standard input.
pub fn read_stdin() -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    io::stdin().lock().read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads the program `source` stands for; `Err` is a message for an input
/// that cannot be read at all.
pub fn read_program(source: Source<'_>, cwd: Option<&Path>) -> Result<ProgramInput, String> {
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
            Ok(one_file(shown, text.to_vec(), dir))
        }
        Source::Path(path) => read_path(path, cwd),
    }
}

fn read_path(path: &Path, cwd: Option<&Path>) -> Result<ProgramInput, String> {
    let shown = display_path(path, cwd);
    let meta = fs::metadata(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if !meta.is_dir() {
        return read_file(path, cwd);
    }
    let program_dir = match project_main(path)? {
        Some(main) => {
            let shown_main = display_path(&main, cwd);
            match fs::metadata(&main) {
                Ok(m) if m.is_dir() => main,
                Ok(_) => return read_file(&main, cwd),
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
    let files = FsFiles::new(&program_dir).with_display_prefix(shown.clone());
    let found = list_pp_files(&program_dir).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if found.files.is_empty() && found.skipped.is_empty() {
        return Err(format!("no .pp files in `{shown}`"));
    }
    let mut input = ProgramInput {
        path: shown,
        sources: Vec::new(),
        bad_utf8: Vec::new(),
        unreadable: Vec::new(),
        files,
    };
    for (file, reason) in found.skipped {
        let rel = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = input.files.display_name(&rel);
        input.unreadable.push((name.clone(), reason));
        input.sources.push((name, String::new()));
    }
    for file in found.files {
        let rel = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let name = input.files.display_name(&rel);
        let bytes = match fs::read(&file) {
            Ok(bytes) => bytes,
            Err(e) => {
                input.unreadable.push((name.clone(), e.to_string()));
                input.sources.push((name, String::new()));
                continue;
            }
        };
        let decoded = decode(bytes);
        if let Some(offset) = decoded.first_bad_byte {
            input.bad_utf8.push((name.clone(), offset));
        }
        input.sources.push((name, decoded.text));
    }
    input.sources.sort();
    Ok(input)
}

/// A one-file program; its components are read relative to its directory.
fn read_file(path: &Path, cwd: Option<&Path>) -> Result<ProgramInput, String> {
    let shown = display_path(path, cwd);
    // Never open a FIFO or a device: reading it could block forever.
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => {}
        Ok(_) => return Err(format!("cannot read `{shown}`: {NOT_REGULAR}")),
        Err(e) => return Err(format!("cannot read `{shown}`: {e}")),
    }
    let bytes = fs::read(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok(one_file(shown, bytes, parent))
}

fn one_file(shown: String, bytes: Vec<u8>, dir: PathBuf) -> ProgramInput {
    let prefix = match Path::new(&shown).parent() {
        Some(p) => p.display().to_string(),
        None => String::new(),
    };
    let decoded = decode(bytes);
    let bad_utf8 = decoded
        .first_bad_byte
        .map(|offset| (shown.clone(), offset))
        .into_iter()
        .collect();
    ProgramInput {
        path: shown.clone(),
        sources: vec![(shown, decoded.text)],
        bad_utf8,
        unreadable: Vec::new(),
        files: FsFiles::new(dir).with_display_prefix(prefix),
    }
}

/// The program directory named by `dir/Pulumi.yaml` (or `Pulumi.yml`)
/// when it declares `runtime: pcl`: `dir` joined with its `main`, or `dir`
/// itself. `None` when there is no such project file.
fn project_main(dir: &Path) -> Result<Option<PathBuf>, String> {
    for name in ["Pulumi.yaml", "Pulumi.yml"] {
        let file = dir.join(name);
        if !file.is_file() {
            continue;
        }
        let text = fs::read_to_string(&file)
            .map_err(|e| format!("cannot read `{}`: {e}", file.display()))?;
        let project = parse_project(&text);
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
/// it, with `.` components and resolvable `..` components removed.
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
    parts.iter().collect::<PathBuf>().display().to_string()
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
