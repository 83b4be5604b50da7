//! `pcl check`: bind programs against their package schemas and report
//! every diagnostic.
//!
//! Each PATH is one program ([`crate::inputs`]). Programs are bound in
//! parallel (`--jobs`), then every diagnostic is sorted by file and
//! position ([`crate::formats::Report`]), so the output is the same
//! whatever the scheduling. Schemas come from the `--schema-dir`s, then
//! Pulumi's schema cache (read-only, unless `--no-schema-cache`), then the
//! built-in `pulumi` package: the check never touches the network or starts
//! plugins.
//!
//! Human reports and the summary go to stderr; the machine formats write
//! to stdout only. `--emit model` prints the bound programs on stdout.

use std::collections::{HashMap, HashSet};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use std::sync::Arc;

use pcl_binder::{
    check_file_cached, check_program_cached, BindPolicy, DeclaredNames, FileProvider, SchemaCache,
    Siblings,
};
use pcl_schema::{CachingLoader, ChainLoader, DirLoader, SchemaLoader};
use rayon::prelude::*;

use crate::args::{CheckArgs, CheckEmit, Color, Format, PolicyFlags};
use crate::formats::{self, ProgramResult, Report};
use crate::inputs::{self, ProgramInput, Source};
use crate::Status;

/// Test-only: when this environment variable is `1`, checking a program
/// panics, so that tests can prove a panic becomes "internal error" and
/// exit status 2.
pub const TEST_PANIC_ENV: &str = "PCL_INTERNAL_TEST_PANIC";

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
    let loader = loader(args);
    let policy = policy(&args.policy);

    let (read, read_status) = read_inputs(args, cwd.as_deref());
    status = status.max(read_status);
    let read = with_siblings(read);
    // One cache for all programs: each package is loaded, and each schema
    // type converted, once per run (per thread at worst).
    let loader = SchemaCache::new(loader);
    let programs = bind_all(read, &loader, &policy, args.jobs);
    let report = Report::new(programs, args.max_diagnostics, args.deny_warnings);

    let written = match (args.emit, args.format) {
        (CheckEmit::Model, _) => crate::model::write(&report.programs, &mut io::stdout().lock())
            .and_then(|()| write_human(&report, args.color)),
        (CheckEmit::Diagnostics, Format::Human) => write_human(&report, args.color),
        (CheckEmit::Diagnostics, format) => write_machine(&report, format),
    };
    if written.is_err() {
        status = status.max(Status::Usage);
    }
    if report.fails() {
        status = status.max(Status::Errors);
    }
    status
}

/// `--schema-dir`s first, then `$PULUMI_HOME/schemas` when it exists and
/// `--no-schema-cache` is not given.
fn loader(args: &CheckArgs) -> CachingLoader<ChainLoader> {
    let mut loaders: Vec<Box<dyn SchemaLoader>> =
        vec![Box::new(DirLoader::new(args.schema_dirs.iter().cloned()))];
    if !args.no_schema_cache {
        if let Some(cache) = schema_cache_dir().filter(|d| d.is_dir()) {
            loaders.push(Box::new(DirLoader::new([cache])));
        }
    }
    CachingLoader::new(ChainLoader::new(loaders))
}

/// `$PULUMI_HOME/schemas`, or `~/.pulumi/schemas`.
pub fn schema_cache_dir() -> Option<PathBuf> {
    let home = match std::env::var_os("PULUMI_HOME").filter(|v| !v.is_empty()) {
        Some(home) => PathBuf::from(home),
        None => {
            let user = std::env::var_os("HOME")
                .or_else(|| std::env::var_os("USERPROFILE"))
                .filter(|v| !v.is_empty())?;
            PathBuf::from(user).join(".pulumi")
        }
    };
    Some(home.join("schemas"))
}

/// Reads every PATH; unreadable ones are reported on stderr and make the
/// status 2. A PATH given again, however spelt (`./x` and `x`, a link to
/// it), is checked once.
fn read_inputs(args: &CheckArgs, cwd: Option<&Path>) -> (Vec<ProgramInput>, Status) {
    let mut status = Status::Success;
    let mut stdin: Option<Vec<u8>> = None;
    let mut read = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let root = args.root.as_deref();
    for path in &args.paths {
        let same = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
        if !seen.insert(same) {
            continue;
        }
        let result = if path.as_os_str() == "-" {
            let text = match &stdin {
                Some(text) => text,
                None => match inputs::read_stdin() {
                    Ok(bytes) => stdin.insert(bytes),
                    Err(e) => {
                        eprintln!("error: cannot read standard input: {e}");
                        status = Status::Usage;
                        continue;
                    }
                },
            };
            let name = args.stdin_filename.as_deref();
            inputs::read_program_in(Source::Stdin { text, name }, cwd, root)
        } else {
            inputs::read_program_in(Source::Path(path), cwd, root)
        };
        match result {
            Ok(input) => read.push(input),
            Err(message) => {
                eprintln!("error: {message}");
                status = Status::Usage;
            }
        }
    }
    (read, status)
}

/// Each input that is one file checked alone, with what the other `.pp`
/// files of its directory declare (read and parsed once per directory).
fn with_siblings(read: Vec<ProgramInput>) -> Vec<(ProgramInput, Option<Siblings>)> {
    let mut by_dir: HashMap<(PathBuf, String), Arc<DeclaredNames>> = HashMap::new();
    read.into_iter()
        .map(|input| {
            if !input.alone {
                return (input, None);
            }
            let dir = input.files.program_dir();
            let names = by_dir
                .entry((input.files.root().to_path_buf(), dir.clone()))
                .or_insert_with(|| {
                    let files = input.files.list_dir(&dir).map(|l| l.files);
                    Arc::new(DeclaredNames::from_files(&files.unwrap_or_default()))
                })
                .clone();
            let checked = input.sources.first().map(|f| f.0.clone());
            let siblings = checked.map(|c| Siblings::new(names, c));
            (input, siblings)
        })
        .collect()
}

/// Binds every program, `jobs` at a time.
fn bind_all(
    read: Vec<(ProgramInput, Option<Siblings>)>,
    loader: &SchemaCache<CachingLoader<ChainLoader>>,
    policy: &BindPolicy,
    jobs: Option<usize>,
) -> Vec<ProgramResult> {
    let test_panic = std::env::var_os(TEST_PANIC_ENV).is_some_and(|v| v == "1");
    let bind = |(input, siblings): (ProgramInput, Option<Siblings>)| {
        if test_panic {
            panic!("{TEST_PANIC_ENV} is set");
        }
        bind_one(input, siblings.as_ref(), loader, policy)
    };
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = jobs {
        builder = builder.num_threads(n);
    }
    match builder.build() {
        Ok(pool) => pool.install(|| read.into_par_iter().map(bind).collect()),
        Err(_) => read.into_iter().map(bind).collect(),
    }
}

fn bind_one(
    input: ProgramInput,
    siblings: Option<&Siblings>,
    loader: &SchemaCache<CachingLoader<ChainLoader>>,
    policy: &BindPolicy,
) -> ProgramResult {
    let checked = match siblings {
        Some(s) => check_file_cached(&input.sources, loader, policy, &input.files, s),
        None => check_program_cached(&input.sources, loader, policy, &input.files),
    };
    let (program, sources, mut diagnostics) = checked.into_parts();
    if !input.problems.is_empty() {
        let ids: HashMap<&str, pcl_diagnostics::FileId> =
            sources.iter().map(|(id, f)| (f.name(), id)).collect();
        for problem in &input.problems {
            if let Some(file) = ids.get(problem.name.as_str()) {
                diagnostics.push(problem.diagnostic(*file));
            }
        }
    }
    pcl_diagnostics::sort_and_dedup(&mut diagnostics);
    ProgramResult {
        path: input.path,
        program,
        sources,
        diagnostics,
    }
}

fn write_human(report: &Report, color: Color) -> io::Result<()> {
    let stderr = io::stderr();
    let color = use_color(color, stderr.is_terminal());
    let mut out = stderr.lock();
    formats::human::write(report, &mut out, color)?;
    out.flush()
}

fn write_machine(report: &Report, format: Format) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match format {
        Format::Short => formats::short::write(report, &mut out)?,
        Format::Json => formats::json::write(report, &mut out)?,
        Format::Sarif => formats::sarif::write(report, &mut out)?,
        Format::Github => formats::github::write(report, &mut out)?,
        Format::Human => formats::human::write(report, &mut out, false)?,
    }
    out.flush()?;
    // The JSON formats count what was left out themselves; the line formats
    // say it on stderr, never mixing it into their stdout.
    if matches!(format, Format::Short | Format::Github) {
        if let Some(note) = report.omitted_note() {
            eprintln!("note: {note}");
        }
    }
    Ok(())
}

/// Whether to colour a stream: `always`/`never` win; `auto` colours a
/// terminal unless `NO_COLOR` is set to a non-empty value or `TERM=dumb`.
pub fn use_color(color: Color, is_terminal: bool) -> bool {
    match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            is_terminal
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_color_wins() {
        assert!(use_color(Color::Always, false));
        assert!(!use_color(Color::Never, true));
        assert!(!use_color(Color::Auto, false));
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
