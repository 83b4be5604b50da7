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
//!   its errors go to stderr. Files are replaced by the protocol of
//!   [`replace`] (opened once without following a final link, a temporary
//!   file with the original's mode and owner, checked unchanged just before
//!   the rename, hard links written in place, read-only files refused); a
//!   symbolic link is written through only to a file inside the PATHs
//!   ([`jobs`]). Files go in batches of [`CHUNK`]: formatted in parallel,
//!   their temporary files synced in parallel, then renamed in order and
//!   each directory synced once.
//! - `--diff` is [`udiff`]: linear in the files' size, control characters
//!   escaped.
//! - Exit status: 0 when nothing needed changing or everything was
//!   written; 1 under `--check`/`--diff` when something would change; 2 on
//!   a run error (bad arguments, unreadable or unwritable file) or a file
//!   with syntax errors.

use std::fmt::Write as _;
use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use pcl_diagnostics::{render, RenderOptions, SourceMap};
use pcl_fmt::FormatError;

use crate::Status;

#[cfg(unix)]
pub(crate) mod replace;
mod udiff;

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
        let jobs = jobs(paths, args.recursive, args.check || args.diff);
        for chunk in jobs.chunks(CHUNK) {
            run.chunk(chunk);
        }
    }
    if run.stdout.flush().is_err() {
        run.status = run.status.max(Status::Usage);
    }
    run.status
}

/// Files handled together: formatted in parallel, their temporary files
/// synced in parallel, then replaced in order. Bounds the open files (three
/// per file) and the texts held in memory.
const CHUNK: usize = 128;

/// Threads that wait on the disk syncing temporary files at once.
const SYNC_THREADS: usize = 32;

struct Run<'a> {
    args: &'a FmtArgs,
    options: RenderOptions,
    status: Status,
    stdout: io::StdoutLock<'static>,
}

/// One file to format, or why it cannot be.
#[derive(Debug)]
enum Job {
    /// Format `open` (a symbolic link already resolved to its target, which
    /// lies inside the paths being formatted or is only read); messages
    /// name it `name`. When files are written, `dir` is the device and
    /// inode its directory had when it was found inside the PATHs: the
    /// directory opened later must be the same one (no directory of the
    /// path swapped for a link since).
    File {
        name: String,
        open: PathBuf,
        dir: Option<(u64, u64)>,
    },
    /// A message (an error) instead.
    Refused(String),
}

/// What formatting one file gave: its standard output (`--check`/`--diff`),
/// standard error, status, and the replacement waiting to be committed.
struct Outcome {
    stdout: String,
    stderr: String,
    status: Status,
    #[cfg(unix)]
    staged: Option<(String, replace::Staged)>,
}

impl Default for Outcome {
    fn default() -> Outcome {
        Outcome {
            stdout: String::new(),
            stderr: String::new(),
            status: Status::Success,
            #[cfg(unix)]
            staged: None,
        }
    }
}

impl Outcome {
    fn fail(&mut self, message: &str) {
        let _ = writeln!(self.stderr, "error: {message}");
        self.status = self.status.max(Status::Usage);
    }
}

impl Run<'_> {
    fn fail(&mut self, message: &str) {
        eprintln!("error: {message}");
        self.status = self.status.max(Status::Usage);
    }

    /// Formats, reports or stages the files of `jobs` (in parallel), syncs
    /// the staged ones (in parallel), replaces them (in order, each checked
    /// unchanged first), syncs their directories once each, and prints what
    /// each file gave, in order.
    fn chunk(&mut self, jobs: &[Job]) {
        use rayon::prelude::*;
        let args = self.args;
        let options = self.options;
        let mut outcomes: Vec<Outcome> = jobs
            .par_iter()
            .map(|job| prepare(job, args, options))
            .collect();
        #[cfg(unix)]
        commit_all(&mut outcomes);
        for outcome in outcomes {
            let _ = self.stdout.write_all(outcome.stdout.as_bytes());
            if !outcome.stderr.is_empty() {
                let _ = self.stdout.flush();
                eprint!("{}", outcome.stderr);
            }
            self.status = self.status.max(outcome.status);
        }
    }

    fn stdin(&mut self) {
        let name =
            pcl_diagnostics::escape(self.args.stdin_filename.as_deref().unwrap_or("<stdin>"));
        let bytes = match crate::inputs::read_stdin() {
            Ok(bytes) => bytes,
            Err(err) => return self.fail(&format!("cannot read standard input: {err}")),
        };
        let mut outcome = Outcome::default();
        let formatted = format(&name, bytes, self.options, &mut outcome);
        if let Some((old, new)) = formatted {
            if self.args.check || self.args.diff {
                if old != new {
                    report(self.args, &name, &old, &new, &mut outcome);
                }
            } else {
                outcome.stdout = new;
            }
        }
        if self.stdout.write_all(outcome.stdout.as_bytes()).is_err() {
            self.status = self.status.max(Status::Usage);
        }
        eprint!("{}", outcome.stderr);
        self.status = self.status.max(outcome.status);
    }
}

/// Formats `bytes` (named `name`); `None` after reporting why not.
fn format(
    name: &str,
    bytes: Vec<u8>,
    options: RenderOptions,
    outcome: &mut Outcome,
) -> Option<(String, String)> {
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(err) => {
            let at = err.utf8_error().valid_up_to();
            outcome.fail(&format!(
                "`{name}` is not valid UTF-8 (byte {at}); it was left as it is"
            ));
            return None;
        }
    };
    let mut sources = SourceMap::new();
    let file = sources.add(name.to_string(), text.as_str());
    match pcl_fmt::format(file, &text) {
        Ok(formatted) => Some((text, formatted)),
        Err(FormatError::Syntax(diagnostics)) => {
            for diagnostic in &diagnostics {
                outcome
                    .stderr
                    .push_str(&render(diagnostic, &sources, options));
            }
            outcome.fail(&format!("`{name}` has syntax errors; it was left as it is"));
            None
        }
        Err(err @ FormatError::Internal { .. }) => {
            outcome.fail(&format!("`{name}`: {err}"));
            None
        }
    }
}

/// Reports a text that would change under `--check`/`--diff`.
fn report(args: &FmtArgs, name: &str, old: &str, new: &str, outcome: &mut Outcome) {
    if args.check {
        let _ = writeln!(outcome.stdout, "{name}");
    }
    if args.diff {
        let a = format!("a/{name}");
        let b = format!("b/{name}");
        outcome.stdout.push_str(&udiff::unified(old, new, &a, &b));
    }
    outcome.status = outcome.status.max(Status::Errors);
}

/// Reads and formats one file; under `--check`/`--diff` reports it, else
/// stages its replacement.
fn prepare(job: &Job, args: &FmtArgs, options: RenderOptions) -> Outcome {
    let mut outcome = Outcome::default();
    let (name, path, dir) = match job {
        Job::File { name, open, dir } => (name, open, *dir),
        Job::Refused(message) => {
            outcome.fail(message);
            return outcome;
        }
    };
    #[cfg(unix)]
    let opened = match replace::Opened::open(path, dir) {
        Ok(opened) => opened,
        Err(why) => {
            outcome.fail(&refused(name, &why, false));
            return outcome;
        }
    };
    #[cfg(unix)]
    let bytes = opened.bytes().to_vec();
    #[cfg(not(unix))]
    let _ = dir;
    #[cfg(not(unix))]
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) => {
            outcome.fail(&format!("cannot read `{name}`: {err}"));
            return outcome;
        }
    };
    let Some((old, new)) = format(name, bytes, options, &mut outcome) else {
        return outcome;
    };
    if old == new {
        return outcome;
    }
    if args.check || args.diff {
        report(args, name, &old, &new, &mut outcome);
        return outcome;
    }
    #[cfg(unix)]
    {
        opened.test_hook("read", None);
        match opened.stage(new.as_bytes()) {
            Ok(staged) => outcome.staged = Some((name.clone(), staged)),
            Err(why) => outcome.fail(&refused(name, &why, true)),
        }
    }
    #[cfg(not(unix))]
    if let Err(err) = write_atomically(path, new.as_bytes()) {
        outcome.fail(&format!("cannot write `{name}`: {err}"));
    }
    outcome
}

/// The message of a file not formatted or not replaced.
#[cfg(unix)]
fn refused(name: &str, why: &replace::Refusal, writing: bool) -> String {
    use replace::Refusal;
    match why {
        Refusal::Changed => {
            format!("`{name}` changed while formatting; it was left as it is")
        }
        Refusal::ReadOnly => format!("`{name}` is read-only; it was left as it is"),
        Refusal::NotRegular => format!("cannot read `{name}`: not a regular file"),
        Refusal::Io(what, err) if writing => {
            format!("cannot write `{name}` ({what}): {err}; it was left as it is")
        }
        Refusal::Io(_, err) => format!("cannot read `{name}`: {err}"),
    }
}

/// Syncs the staged files of `outcomes` (many at once: the waits on the
/// disk overlap), replaces each after checking it is unchanged, then syncs
/// each directory written to once.
#[cfg(unix)]
fn commit_all(outcomes: &mut [Outcome]) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let staged: Vec<(usize, &replace::Staged)> = outcomes
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.staged.as_ref().map(|(_, s)| (i, s)))
        .collect();
    let next = AtomicUsize::new(0);
    let failed = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..SYNC_THREADS.min(staged.len()) {
            scope.spawn(|| {
                while let Some(&(i, staged)) = staged.get(next.fetch_add(1, Ordering::Relaxed)) {
                    if let Err(err) = staged.sync() {
                        if let Ok(mut failed) = failed.lock() {
                            failed.push((i, err));
                        }
                    }
                }
            });
        }
    });
    let mut failed: std::collections::HashMap<usize, io::Error> = failed
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .collect();
    let mut dirs: Vec<std::os::fd::OwnedFd> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, outcome) in outcomes.iter_mut().enumerate() {
        let Some((name, staged)) = outcome.staged.take() else {
            continue;
        };
        if let Some(err) = failed.remove(&i) {
            staged.abandon();
            outcome.fail(&refused(&name, &replace::Refusal::Io("sync", err), true));
            continue;
        }
        staged.test_hook("staged");
        match staged.commit() {
            Ok(Some(dir)) => {
                if let Ok(stat) = rustix::fs::fstat(&dir) {
                    if seen.insert((stat.st_dev, stat.st_ino)) {
                        dirs.push(dir);
                    }
                }
            }
            Ok(None) => {}
            Err(why) => outcome.fail(&refused(&name, &why, true)),
        }
    }
    // The renames reach the disk: each directory synced once (errors are
    // not the file's: its contents are already safe).
    std::thread::scope(|scope| {
        for group in dirs.chunks(dirs.len().div_ceil(SYNC_THREADS).max(1)) {
            scope.spawn(move || {
                for dir in group {
                    let _ = rustix::fs::fsync(dir);
                }
            });
        }
    });
}

/// `path` for messages, control characters and bytes that are not UTF-8
/// escaped.
fn shown(path: &Path) -> String {
    pcl_diagnostics::escape_path(path)
}

/// Replaces `path`'s contents with `bytes` through a temporary file in the
/// same directory and a rename (systems without `replace`'s protocol).
#[cfg(not(unix))]
fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let target = fs::canonicalize(path)?;
    let dir = target.parent().unwrap_or(Path::new("."));
    let permissions = fs::metadata(&target)?.permissions();
    if permissions.readonly() {
        return Err(io::Error::new(io::ErrorKind::PermissionDenied, "read-only"));
    }
    let temp = dir.join(format!(".pcl-fmt-{}.tmp", std::process::id()));
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

/// A PATH as given: a directory (canonical) stands for the files under it;
/// a file (its canonical directory and its own name, a symbolic link not
/// followed) for itself.
#[derive(Debug)]
enum Root {
    Dir(PathBuf),
    File(PathBuf),
}

impl Root {
    fn of(path: &Path) -> Option<Root> {
        if fs::metadata(path).ok()?.is_dir() {
            return fs::canonicalize(path).ok().map(Root::Dir);
        }
        let name = path.file_name()?;
        let parent = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        Some(Root::File(fs::canonicalize(parent).ok()?.join(name)))
    }

    fn holds(&self, target: &Path) -> bool {
        match self {
            Root::Dir(dir) => target.starts_with(dir),
            Root::File(file) => target == file,
        }
    }
}

/// The files to format, in order: each file of [`expand`]; a symbolic link
/// resolved to its target, which must lie inside the PATHs when files are
/// written (`read_only`: `--check`/`--diff` may read it anywhere); each
/// file once, however many names lead to it.
fn jobs(paths: &[PathBuf], recursive: bool, read_only: bool) -> Vec<Job> {
    let roots: Vec<Root> = paths.iter().filter_map(|p| Root::of(p)).collect();
    let mut seen = std::collections::HashSet::new();
    let mut jobs = Vec::new();
    for file in expand(paths, recursive) {
        let path = match file {
            Ok(path) => path,
            Err((path, why)) => {
                jobs.push(Job::Refused(format!(
                    "cannot read `{}`: {why}",
                    shown(&path)
                )));
                continue;
            }
        };
        let name = shown(&path);
        let is_link = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        let open = if is_link {
            match fs::canonicalize(&path) {
                Ok(target) if read_only || roots.iter().any(|r| r.holds(&target)) => target,
                Ok(target) => {
                    jobs.push(Job::Refused(format!(
                        "`{name}` is a symbolic link to `{}`, outside the paths being \
                         formatted; it was not written through (format the target itself)",
                        shown(&target)
                    )));
                    continue;
                }
                Err(err) => {
                    jobs.push(Job::Refused(format!("cannot read `{name}`: {err}")));
                    continue;
                }
            }
        } else {
            path
        };
        #[cfg(unix)]
        if let Ok(meta) = fs::metadata(&open) {
            use std::os::unix::fs::MetadataExt;
            if !seen.insert((meta.dev(), meta.ino())) {
                continue;
            }
        }
        let mut dir = None;
        #[cfg(unix)]
        if !read_only {
            use std::os::unix::fs::MetadataExt;
            // Where the file really is: inside the PATHs (no directory of
            // its path is a link out of them), and which directory.
            let parent = match open.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            let real = fs::canonicalize(parent).and_then(|real| Ok((fs::metadata(&real)?, real)));
            match (real, open.file_name()) {
                (Ok((meta, real)), Some(file))
                    if roots.iter().any(|r| r.holds(&real.join(file))) =>
                {
                    dir = Some((meta.dev(), meta.ino()));
                }
                (Ok((_, real)), _) => {
                    jobs.push(Job::Refused(format!(
                        "`{name}` is in `{}`, outside the paths being formatted (through a \
                         symbolic link); it was left as it is",
                        shown(&real)
                    )));
                    continue;
                }
                (Err(err), _) => {
                    jobs.push(Job::Refused(format!("cannot read `{name}`: {err}")));
                    continue;
                }
            }
        }
        #[cfg(not(unix))]
        if let Ok(canonical) = fs::canonicalize(&open) {
            if !seen.insert(canonical) {
                continue;
            }
        }
        jobs.push(Job::File { name, open, dir });
    }
    jobs
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
