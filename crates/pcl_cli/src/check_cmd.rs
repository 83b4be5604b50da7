//! `pcl check`: bind programs against their package schemas and report
//! every diagnostic.
//!
//! Each PATH is one program, checked independently: a `.pp` file is a
//! one-file program (its components are read relative to its directory), a
//! directory is the program made of its `*.pp` files, and a directory whose
//! `Pulumi.yaml` says `runtime: pcl` is the program in its `main` directory
//! (the directory itself when `main` is absent). Schemas come from the
//! `--schema-dir` directories only (plus the built-in `pulumi` package):
//! the check never touches the network.
//!
//! Diagnostics of all programs are sorted by file path, then position, so
//! the output does not depend on the order of the PATHs. Human reports go
//! to stderr; `--format short` prints one line per diagnostic on stdout.
//! A summary line closes stderr either way. File names are shown relative
//! to the current directory.

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Component, Path, PathBuf};

use pcl_binder::{check_program_with_files, BindPolicy, Checked, FsFiles, Program};
use pcl_diagnostics::{render, render_short, RenderOptions, Severity};
use pcl_schema::{CachingLoader, DirLoader, SchemaLoader};

use crate::args::{CheckArgs, Color, Format, PolicyFlags};
use crate::Status;

/// The bind policy the flags ask for: `--lenient` first, then each single
/// option on top of it.
pub fn policy(flags: &PolicyFlags) -> BindPolicy {
    let mut policy = if flags.lenient {
        BindPolicy::lenient()
    } else {
        BindPolicy::strict()
    };
    policy.allow_missing_variables |= flags.allow_missing_variables;
    policy.allow_missing_properties |= flags.allow_missing_properties;
    policy.skip_resource_typecheck |= flags.skip_resource_typecheck;
    policy.skip_invoke_typecheck |= flags.skip_invoke_typecheck;
    policy.skip_range_typecheck |= flags.skip_range_typecheck;
    policy.prefer_output_versioned_invokes |= flags.prefer_output_versioned_invokes;
    policy
}

/// Runs `pcl check`.
pub fn run(args: &CheckArgs) -> Status {
    let mut status = Status::Success;
    for dir in &args.schema_dirs {
        if !dir.is_dir() {
            eprintln!(
                "error: schema directory `{}` is not a readable directory",
                dir.display()
            );
            status = Status::Usage;
        }
    }
    if status == Status::Usage {
        return status;
    }
    let cwd = std::env::current_dir().ok();
    let loader = CachingLoader::new(DirLoader::new(args.schema_dirs.iter().cloned()));
    let policy = policy(&args.policy);

    let mut programs: Vec<Checked<Program>> = Vec::new();
    for path in &args.paths {
        match check_path(path, cwd.as_deref(), &loader, &policy) {
            Ok(checked) => programs.push(checked),
            Err(message) => {
                eprintln!("error: {message}");
                status = Status::Usage;
            }
        }
    }

    let options = RenderOptions {
        color: use_color(args.color),
    };
    let mut entries: Vec<(String, u32, usize, usize)> = Vec::new();
    for (p, checked) in programs.iter().enumerate() {
        for (i, d) in checked.diagnostics().iter().enumerate() {
            let name = checked
                .sources()
                .get(d.span.file)
                .map(|f| f.name().to_string())
                .unwrap_or_default();
            entries.push((name, d.span.range.start, p, i));
        }
    }
    entries.sort();

    let (mut errors, mut warnings) = (0usize, 0usize);
    let mut stdout = io::stdout().lock();
    let mut stderr = io::stderr().lock();
    for (_, _, p, i) in &entries {
        let Some(checked) = programs.get(*p) else {
            continue;
        };
        let Some(d) = checked.diagnostics().get(*i) else {
            continue;
        };
        match d.severity {
            Severity::Error => errors += 1,
            Severity::Warning => warnings += 1,
            Severity::Note => {}
        }
        let written = match args.format {
            Format::Human => write!(stderr, "{}", render(d, checked.sources(), options)),
            Format::Short => writeln!(stdout, "{}", render_short(d, checked.sources())),
        };
        if written.is_err() {
            status = status.max(Status::Usage);
        }
    }
    if stdout.flush().is_err() {
        status = status.max(Status::Usage);
    }
    if errors > 0 {
        status = status.max(Status::Errors);
    }
    let _ = writeln!(stderr, "{}", summary(errors, warnings, programs.len()));
    status
}

/// `2 errors, 1 warning in 3 programs`, or `no problems found in 1
/// program`.
pub fn summary(errors: usize, warnings: usize, programs: usize) -> String {
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    let programs = plural(programs, "program");
    if errors == 0 && warnings == 0 {
        return format!("no problems found in {programs}");
    }
    format!(
        "{}, {} in {programs}",
        plural(errors, "error"),
        plural(warnings, "warning")
    )
}

fn use_color(color: Color) -> bool {
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            io::stderr().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        }
    }
}

/// Checks the program that `path` stands for.
fn check_path(
    path: &Path,
    cwd: Option<&Path>,
    loader: &dyn SchemaLoader,
    policy: &BindPolicy,
) -> Result<Checked<Program>, String> {
    let shown = display_path(path, cwd);
    let meta = fs::metadata(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    if !meta.is_dir() {
        return check_file(path, &shown, loader, policy);
    }
    let program_dir = match project_main(path)? {
        Some(main) => {
            let shown_main = display_path(&main, cwd);
            match fs::metadata(&main) {
                Ok(m) if m.is_dir() => main,
                Ok(_) => return check_file(&main, &shown_main, loader, policy),
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
    let sources = pcl_binder::FileProvider::read_dir(&files, "")?;
    if sources.is_empty() {
        return Err(format!("no .pp files in `{shown}`"));
    }
    Ok(check_program_with_files(&sources, loader, policy, &files))
}

/// Checks a one-file program; its components are read relative to the
/// file's directory.
fn check_file(
    path: &Path,
    shown: &str,
    loader: &dyn SchemaLoader,
    policy: &BindPolicy,
) -> Result<Checked<Program>, String> {
    let bytes = fs::read(path).map_err(|e| format!("cannot read `{shown}`: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "`{shown}` is not valid UTF-8 (at byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let prefix = match Path::new(shown).parent() {
        Some(p) => p.display().to_string(),
        None => String::new(),
    };
    let files = FsFiles::new(parent).with_display_prefix(prefix);
    let sources = vec![(shown.to_string(), text)];
    Ok(check_program_with_files(&sources, loader, policy, &files))
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
    fn summary_wording() {
        assert_eq!(summary(0, 0, 1), "no problems found in 1 program");
        assert_eq!(summary(2, 1, 3), "2 errors, 1 warning in 3 programs");
        assert_eq!(summary(0, 2, 1), "0 errors, 2 warnings in 1 program");
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
        let cwd = Path::new("/home/me/repo");
        assert_eq!(
            display_path(Path::new("/home/me/repo/examples/web"), Some(cwd)),
            "examples/web"
        );
        assert_eq!(display_path(Path::new("./a/./b/../c"), Some(cwd)), "a/c");
        assert_eq!(display_path(Path::new("../x"), Some(cwd)), "../x");
        assert_eq!(display_path(Path::new("."), Some(cwd)), ".");
        assert_eq!(display_path(Path::new("/other/x"), Some(cwd)), "/other/x");
    }

    #[test]
    fn policy_from_flags() {
        let strict = policy(&PolicyFlags::default());
        assert_eq!(strict, BindPolicy::strict());
        let lenient = policy(&PolicyFlags {
            lenient: true,
            prefer_output_versioned_invokes: true,
            ..PolicyFlags::default()
        });
        assert!(lenient.is_lenient() && lenient.allow_missing_variables);
        assert!(lenient.prefer_output_versioned_invokes);
        let one = policy(&PolicyFlags {
            skip_range_typecheck: true,
            ..PolicyFlags::default()
        });
        assert!(one.skip_range_typecheck && !one.allow_missing_variables);
    }
}
