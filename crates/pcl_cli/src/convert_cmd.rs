//! `pcl convert --to yaml PATH`: checks one program as `pcl check` does
//! (the same schema sources and strictness flags, its `pcl.toml` ignored)
//! and prints it as Pulumi YAML ([`pcl_yaml`]), or writes `DIR/Main.yaml`
//! with `-o DIR`.
//!
//! A program with errors is refused: its diagnostics are printed and the
//! status is 1, unless `--lenient` (then the YAML is written and the
//! diagnostics are printed as warnings would be). A feature YAML cannot
//! express (a `for` expression, a splat, `range`, a component …) is an
//! error naming it at its position, also with `--lenient`; nothing is
//! written then.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use pcl_binder::{check_program_cached, SchemaCache};
use pcl_diagnostics::Diagnostic;

use crate::args::{Color, ConvertArgs, ConvertTarget};
use crate::check_cmd::use_color;
use crate::config::Settings;
use crate::formats::{self, ProgramResult, Report, RunError};
use crate::inputs::{self, Source};
use crate::Status;

/// The file `-o DIR` writes (pulumi-yaml's program file name).
pub const MAIN_FILE: &str = "Main.yaml";

/// Runs `pcl convert`.
pub fn run(args: &ConvertArgs) -> Status {
    match args.to {
        ConvertTarget::Yaml => {}
    }
    let cwd = std::env::current_dir().ok();
    let check = args.as_check_args();
    for dir in &check.schemas.schema_dirs {
        if !dir.is_dir() {
            return run_error(
                args,
                RunError::new(
                    dir.display().to_string(),
                    format!(
                        "schema directory `{}` is not a readable directory",
                        dir.display()
                    ),
                ),
            );
        }
    }
    let input = if args.path.as_os_str() == "-" {
        match inputs::read_stdin() {
            Ok(bytes) => inputs::read_program_in(
                Source::Stdin {
                    text: &bytes,
                    name: None,
                },
                cwd.as_deref(),
                None,
            ),
            Err(e) => Err(format!("cannot read standard input: {e}")),
        }
    } else {
        inputs::read_program_in(Source::Path(&args.path), cwd.as_deref(), None)
    };
    let input = match input {
        Ok(input) => input,
        Err(message) => {
            let shown = inputs::display_path(&args.path, cwd.as_deref());
            return run_error(args, RunError::new(shown, message));
        }
    };
    let settings = Settings::merge(&check, None);
    let loader = SchemaCache::new(crate::check_cmd::loader(&settings));
    let policy = settings.policy.bind_policy();
    let checked = check_program_cached(&input.sources, &loader, &policy, &input.files);
    let converted = pcl_yaml::convert(&checked);
    let (program, sources, mut diagnostics) = checked.into_parts();
    let check_failed = diagnostics.iter().any(Diagnostic::is_error);
    let unsupported = converted.has_errors();
    diagnostics.extend(converted.diagnostics);
    pcl_diagnostics::sort_and_dedup(&mut diagnostics);

    let refused = unsupported || (check_failed && !policy.is_lenient());
    if !diagnostics.is_empty() || refused {
        let result = ProgramResult {
            path: input.path.clone(),
            program,
            sources,
            diagnostics,
        };
        let report = Report::new(vec![result], None, false);
        let _ = write_report(&report, args.color);
    }
    if refused {
        if check_failed && !unsupported {
            eprintln!("error: the program has errors; nothing was converted (`--lenient` converts it anyway)");
        } else {
            eprintln!(
                "error: the program uses what Pulumi YAML cannot express; nothing was converted"
            );
        }
        return Status::Errors;
    }
    match &args.output {
        None => {
            let mut out = io::stdout().lock();
            match out
                .write_all(converted.yaml.as_bytes())
                .and_then(|()| out.flush())
            {
                Ok(()) => Status::Success,
                Err(_) => Status::Usage,
            }
        }
        Some(dir) => match write_main(dir, converted.yaml.as_bytes()) {
            Ok(path) => {
                eprintln!(
                    "wrote {}",
                    pcl_diagnostics::escape(&inputs::display_path(&path, cwd.as_deref()))
                );
                Status::Success
            }
            Err(message) => run_error(args, RunError::new(dir.display().to_string(), message)),
        },
    }
}

/// A problem with the run itself (an unreadable PATH or schema
/// directory, an output that cannot be written): said on stderr, status 2.
fn run_error(_args: &ConvertArgs, error: RunError) -> Status {
    eprintln!("error: {}", pcl_diagnostics::escape(&error.message));
    Status::Usage
}

fn write_report(report: &Report, color: Color) -> io::Result<()> {
    let stderr = io::stderr();
    let color = use_color(color, stderr.is_terminal());
    let mut out = stderr.lock();
    formats::human::write(report, &mut out, color)?;
    out.flush()
}

/// Writes `DIR/Main.yaml` (creating DIR): a new file is created
/// exclusively (never through a symbolic link); an existing one is
/// replaced with `pcl fmt`'s protocol (same directory handle, permissions
/// kept, refused when it changed meanwhile or is read-only).
fn write_main(dir: &Path, bytes: &[u8]) -> Result<PathBuf, String> {
    let shown = |p: &Path| p.display().to_string();
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create directory `{}`: {e}", shown(dir)))?;
    let path = dir.join(MAIN_FILE);
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .map_err(|e| format!("cannot create `{}`: {e}", shown(&path)))?;
            file.write_all(bytes)
                .and_then(|()| file.sync_all())
                .map_err(|e| format!("cannot write `{}`: {e}", shown(&path)))?;
            Ok(path)
        }
        Err(e) => Err(format!("cannot read `{}`: {e}", shown(&path))),
        Ok(meta) if !meta.file_type().is_file() => Err(format!(
            "`{}` exists and is not a regular file (a symbolic link is not followed)",
            shown(&path)
        )),
        Ok(_) => replace(&path, bytes).map(|()| path.clone()),
    }
}

#[cfg(unix)]
fn replace(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use crate::fmt_cmd::replace::Opened;
    let shown = path.display().to_string();
    let opened = Opened::open(path, None).map_err(|why| format!("cannot open `{shown}`: {why}"))?;
    let staged = opened
        .stage(bytes)
        .map_err(|why| format!("cannot replace `{shown}`: {why}"))?;
    staged
        .sync()
        .map_err(|e| format!("cannot write `{shown}`: {e}"))?;
    staged
        .commit()
        .map(|_| ())
        .map_err(|why| format!("cannot replace `{shown}`: {why}"))
}

#[cfg(not(unix))]
fn replace(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}
