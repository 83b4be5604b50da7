//! `pcl fmt`: rewrite `.pp` files in the canonical layout (`pcl_fmt`, the
//! one hclwrite gives), or, with `--check`/`--diff`, say what would change.
//!
//! The command line declares the flags (`args::FmtCli`, with clap) and
//! hands them over as [`FmtArgs`]; what they mean lives here.
//!
//! - A PATH is a file (formatted whatever its extension), a directory (its
//!   `*.pp` files; with `--recursive`, those of its subdirectories too,
//!   symbolic links to directories not followed), or `-`: standard input,
//!   formatted to standard output (`--stdin-filename` names it in
//!   messages). No PATH means the current directory.
//! - `--check` writes nothing and lists the files that would change on
//!   stdout, one per line; `--diff` writes nothing and prints a unified
//!   diff (`--- a/PATH`, `+++ b/PATH`) of each. Both may be given.
//! - A file with syntax errors (or that is not UTF-8) is left as it is and
//!   its errors go to stderr. Files are replaced atomically: the new text
//!   is written to a temporary file in the same directory, which is then
//!   renamed over the old one.
//! - Exit status: 0 when nothing needed changing or everything was
//!   written; 1 under `--check`/`--diff` when something would change; 2 on
//!   a run error (bad arguments, unreadable or unwritable file) or a file
//!   with syntax errors.

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use pcl_diagnostics::{render, RenderOptions, SourceMap};
use pcl_fmt::FormatError;

use crate::Status;

/// Arguments of `pcl fmt`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FmtArgs {
    /// Files and directories; `-` is standard input; empty means `.`.
    pub paths: Vec<PathBuf>,
    /// `--recursive`/`-r`: directories include their subdirectories.
    pub recursive: bool,
    /// `--check`: change nothing, list the files that would change.
    pub check: bool,
    /// `--diff`: change nothing, print a unified diff.
    pub diff: bool,
    /// `--stdin-filename NAME`: the name of `-` in messages.
    pub stdin_filename: Option<String>,
}

/// Runs `pcl fmt`.
pub fn run(args: &FmtArgs) -> Status {
    let options = RenderOptions {
        color: crate::check_cmd::use_color(crate::Color::Auto, io::stderr().is_terminal()),
    };
    let mut run = Run {
        args,
        options,
        sources: SourceMap::new(),
        status: Status::Success,
        stdout: io::stdout().lock(),
    };
    if args.paths.len() == 1 && args.paths.iter().all(|p| p.as_os_str() == "-") {
        run.stdin();
    } else {
        let default = [PathBuf::from(".")];
        let paths = if args.paths.is_empty() {
            &default[..]
        } else {
            &args.paths[..]
        };
        for file in expand(paths, args.recursive) {
            match file {
                Ok(path) => run.file(&path),
                Err((path, why)) => run.fail(&format!("cannot read `{}`: {why}", shown(&path))),
            }
        }
    }
    if run.stdout.flush().is_err() {
        run.status = run.status.max(Status::Usage);
    }
    run.status
}

struct Run<'a> {
    args: &'a FmtArgs,
    options: RenderOptions,
    sources: SourceMap,
    status: Status,
    stdout: io::StdoutLock<'static>,
}

impl Run<'_> {
    fn fail(&mut self, message: &str) {
        eprintln!("error: {message}");
        self.status = self.status.max(Status::Usage);
    }

    /// Formats `bytes` (named `name`); `None` after reporting why not.
    fn format(&mut self, name: &str, bytes: Vec<u8>) -> Option<(String, String)> {
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => {
                let at = err.utf8_error().valid_up_to();
                self.fail(&format!(
                    "`{name}` is not valid UTF-8 (byte {at}); it was left as it is"
                ));
                return None;
            }
        };
        let file = self.sources.add(name.to_string(), text.as_str());
        match pcl_fmt::format(file, &text) {
            Ok(formatted) => Some((text, formatted)),
            Err(FormatError::Syntax(diagnostics)) => {
                for diagnostic in &diagnostics {
                    eprint!("{}", render(diagnostic, &self.sources, self.options));
                }
                self.fail(&format!("`{name}` has syntax errors; it was left as it is"));
                None
            }
            Err(err @ FormatError::Internal { .. }) => {
                self.fail(&format!("`{name}`: {err}"));
                None
            }
        }
    }

    /// Reports a text that would change under `--check`/`--diff`.
    fn report(&mut self, name: &str, old: &str, new: &str) {
        if self.args.check {
            let _ = writeln!(self.stdout, "{name}");
        }
        if self.args.diff {
            let a = format!("a/{name}");
            let b = format!("b/{name}");
            let diff = similar::TextDiff::from_lines(old, new);
            let _ = write!(
                self.stdout,
                "{}",
                diff.unified_diff().context_radius(3).header(&a, &b)
            );
        }
        self.status = self.status.max(Status::Errors);
    }

    fn stdin(&mut self) {
        let name =
            pcl_diagnostics::escape(self.args.stdin_filename.as_deref().unwrap_or("<stdin>"));
        let bytes = match crate::inputs::read_stdin() {
            Ok(bytes) => bytes,
            Err(err) => return self.fail(&format!("cannot read standard input: {err}")),
        };
        let Some((old, new)) = self.format(&name, bytes) else {
            return;
        };
        if self.args.check || self.args.diff {
            if old != new {
                self.report(&name, &old, &new);
            }
        } else if self.stdout.write_all(new.as_bytes()).is_err() {
            self.status = self.status.max(Status::Usage);
        }
    }

    fn file(&mut self, path: &Path) {
        let name = shown(path);
        // A regular file of at most 64 MiB, the size checked while reading.
        let bytes = match crate::inputs::read_source_file(path, &name) {
            Ok(bytes) => bytes,
            Err(message) => return self.fail(&message),
        };
        let Some((old, new)) = self.format(&name, bytes) else {
            return;
        };
        if old == new {
            return;
        }
        if self.args.check || self.args.diff {
            return self.report(&name, &old, &new);
        }
        if let Err(err) = write_atomically(path, new.as_bytes()) {
            self.fail(&format!("cannot write `{name}`: {err}"));
        }
    }
}

/// `path` for messages, control characters and bytes that are not UTF-8
/// escaped.
fn shown(path: &Path) -> String {
    pcl_diagnostics::escape_path(path)
}

/// Replaces `path`'s contents with `bytes` through a temporary file in the
/// same directory and a rename, so a reader sees the old or the new file,
/// never half of one. A symbolic link is followed (its target is
/// replaced, the link stays).
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = fs::canonicalize(path)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let permissions = fs::metadata(&target)?.permissions();
    let temp = dir.join(format!(".{name}.pcl-fmt-{}.tmp", std::process::id()));
    let written = (|| {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)?;
        file.write_all(bytes)?;
        file.set_permissions(permissions)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, &target)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// The files the PATHs stand for, in order (each directory's sorted); a
/// path that cannot be used comes with the reason.
fn expand(paths: &[PathBuf], recursive: bool) -> Vec<Result<PathBuf, (PathBuf, String)>> {
    let mut out = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => list_dir(path, recursive, &mut out),
            Ok(meta) if meta.is_file() => out.push(Ok(path.clone())),
            Ok(_) => out.push(Err((path.clone(), "not a regular file".to_string()))),
            Err(err) => out.push(Err((path.clone(), err.to_string()))),
        }
    }
    out
}

/// The `*.pp` files of `dir` (and, when `recursive`, of its
/// subdirectories, without following symbolic links to directories),
/// walked with an explicit stack.
fn list_dir(dir: &Path, recursive: bool, out: &mut Vec<Result<PathBuf, (PathBuf, String)>>) {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = match fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(err) => {
                out.push(Err((dir, err.to_string())));
                continue;
            }
        };
        let mut files = Vec::new();
        let mut subdirs = Vec::new();
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(err) => {
                    files.push(Err((dir.clone(), err.to_string())));
                    continue;
                }
            };
            let path = entry.path();
            let is_real_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_real_dir {
                if recursive {
                    subdirs.push(path);
                } else if path.extension().is_some_and(|ext| ext == "pp") {
                    // Named like a source file, but not one: said, as
                    // `check` and `parse` say it.
                    files.push(Err((path, "not a regular file".to_string())));
                }
                continue;
            }
            if path.extension().is_none_or(|ext| ext != "pp") {
                continue;
            }
            match fs::metadata(&path) {
                Ok(meta) if meta.is_file() => files.push(Ok(path)),
                Ok(_) => files.push(Err((path, "not a regular file".to_string()))),
                Err(err) => files.push(Err((path, err.to_string()))),
            }
        }
        files.sort_by(|a, b| key(a).cmp(key(b)));
        out.extend(files);
        subdirs.sort();
        // Reversed onto the stack, so they are visited in sorted order.
        stack.extend(subdirs.into_iter().rev());
    }
}

fn key(entry: &Result<PathBuf, (PathBuf, String)>) -> &Path {
    match entry {
        Ok(path) | Err((path, _)) => path,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_control_characters() {
        assert_eq!(shown(Path::new("a\u{1b}[31mb\n")), "a\\u{1b}[31mb\\n");
    }
}
