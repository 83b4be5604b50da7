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

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};

use std::sync::Arc;

use pcl_binder::files::RootCache;
use pcl_binder::{
    check_file_cached, check_program_cached, BindPolicy, DeclaredNames, FileProvider, SchemaCache,
    Siblings,
};
use pcl_schema::{CachingLoader, ChainLoader, DirLoader, SchemaLoader};
use rayon::prelude::*;

use crate::args::{CheckArgs, CheckEmit, Color, Format};
use crate::config::{self, Config, Discovery, Settings};
use crate::formats::{self, ProgramResult, Report, RunError};
use crate::inputs::{self, ProgramInput, Source};
use crate::Status;

/// Test-only: when this environment variable is `1`, checking a program
/// panics, so that tests can prove a panic becomes "internal error" and
/// exit status 2.
pub const TEST_PANIC_ENV: &str = "PCL_INTERNAL_TEST_PANIC";

/// Runs `pcl check`.
pub fn run(args: &CheckArgs) -> Status {
    run_keeping(args).0
}

/// What a check built and no longer needs once its report is written: the
/// report (bound programs, sources, diagnostics) and the schema caches.
/// [`crate::run_then_exit`] leaves them to the operating system instead of
/// freeing them one allocation at a time.
pub struct Leftovers {
    _report: Report,
    _loaders: Vec<SchemaCache<CachingLoader<ChainLoader>>>,
}

/// [`run`], handing back what it built.
pub fn run_keeping(args: &CheckArgs) -> (Status, Option<Leftovers>) {
    let cwd = std::env::current_dir().ok();
    let mut run_errors: Vec<RunError> = Vec::new();
    for dir in &args.schemas.schema_dirs {
        if !dir.is_dir() {
            run_errors.push(RunError::new(
                dir.display().to_string(),
                format!(
                    "schema directory `{}` is not a readable directory",
                    dir.display()
                ),
            ));
        }
    }
    for code in args.allow.iter().chain(&args.warn).chain(&args.deny) {
        if code != "warnings" && !crate::catalogue::is_code(code) {
            run_errors.push(RunError::new("", unknown_code_message(code)));
        }
    }
    if !run_errors.is_empty() {
        // Nothing is checked with settings that are wrong.
        let report = Report::new(Vec::new(), args.max_diagnostics, args.deny_warnings)
            .with_run_errors(run_errors);
        return (finish(args, &report), None);
    }

    // Files passed over because another user owns them, said once each.
    let mut foreign: BTreeMap<PathBuf, u32> = BTreeMap::new();
    let paths = program_paths(args, cwd.as_deref(), &mut run_errors, &mut foreign);
    let mut configs = ConfigSet::for_programs(args, &paths, cwd.as_deref(), &mut run_errors);
    foreign.extend(configs.foreign.drain(..));
    let read = read_inputs(
        args,
        &paths,
        &configs.of_program,
        cwd.as_deref(),
        &mut run_errors,
    );
    for (_, input) in &read {
        foreign.extend(input.foreign.iter().cloned());
    }
    for (path, uid) in &foreign {
        let shown = inputs::display_path(path, cwd.as_deref());
        let note = pcl_diagnostics::read::foreign_owner_note(&shown, *uid);
        eprintln!("warning: {}", pcl_diagnostics::escape(&note));
    }

    // Programs sharing a pcl.toml share settings, a loader and a cache:
    // each package is loaded, and each schema type converted, once per
    // group (per thread at worst).
    let mut groups: BTreeMap<Option<usize>, Vec<ProgramInput>> = BTreeMap::new();
    for (config, input) in read {
        groups.entry(config).or_default().push(input);
    }
    let total: usize = groups.values().map(Vec::len).sum();
    let progress = progress_bar(args, total);
    let mut programs = Vec::new();
    let mut loaders = Vec::new();
    let mut deny_warnings = args.deny_warnings;
    for (config, inputs) in groups {
        let settings = Settings::merge(args, config.and_then(|i| configs.loaded.get(i)));
        for dir in &settings.schema_dirs {
            if !dir.is_dir() {
                run_errors.push(RunError::new(
                    dir.display().to_string(),
                    format!(
                        "schema directory `{}` (from `{}`) is not a readable directory",
                        dir.display(),
                        config
                            .and_then(|i| configs.loaded.get(i))
                            .map(|c| c.path.display().to_string())
                            .unwrap_or_default()
                    ),
                ));
            }
        }
        let loader = SchemaCache::new(loader(&settings));
        let policy = settings.policy.bind_policy();
        let inputs = with_siblings(inputs);
        let mut bound = bind_all(inputs, &loader, &policy, args.jobs, progress.as_ref());
        for program in &mut bound {
            apply_levels(program, &settings);
            if settings.deny_warnings
                && program
                    .diagnostics
                    .iter()
                    .any(|d| d.severity == pcl_diagnostics::Severity::Warning)
            {
                deny_warnings = true;
            }
        }
        programs.extend(bound);
        loaders.push(loader);
    }
    if let Some(bar) = progress {
        bar.finish_and_clear();
    }
    let report =
        Report::new(programs, args.max_diagnostics, deny_warnings).with_run_errors(run_errors);
    let status = finish(args, &report);
    let leftovers = Leftovers {
        _report: report,
        _loaders: loaders,
    };
    (status, Some(leftovers))
}

/// Prints the report (run errors first, on stderr) and turns it into the
/// exit status: 2 after any run error, else 1 when the check fails.
fn finish(args: &CheckArgs, report: &Report) -> Status {
    // Messages quote paths and settings: escaped, so that a file name
    // cannot colour the terminal or forge a CI log line.
    for e in &report.run_errors {
        eprintln!("error: {}", pcl_diagnostics::escape(&e.message));
    }
    let written = match (args.emit, args.format) {
        (Some(CheckEmit::Model), _) => {
            crate::model::write(&report.programs, &mut io::stdout().lock())
                .and_then(|()| write_human(report, args.color))
        }
        (None, Format::Human) => write_human(report, args.color),
        (None, format) => write_machine(report, format),
    };
    let mut status = Status::Success;
    if report.fails() {
        status = Status::Errors;
    }
    if written.is_err() || !report.run_errors.is_empty() {
        status = Status::Usage;
    }
    status
}

/// `unknown diagnostic code `x`; did you mean `y`?`
fn unknown_code_message(code: &str) -> String {
    let escaped = code.escape_debug().to_string();
    let mut message = format!(
        "unknown diagnostic code `{}`",
        pcl_diagnostics::elide_quoted(&escaped)
    );
    let all = crate::catalogue::all_codes();
    let suggestions = pcl_diagnostics::suggest::did_you_mean(code, all.iter().map(|c| c.as_str()));
    if let Some(help) = pcl_diagnostics::suggest::help_line(&suggestions) {
        message.push_str("; ");
        message.push_str(&help);
    }
    message
}

/// `pcl-ignore` comments, then `[codes]` and `--allow`/`--warn`/`--deny`.
fn apply_levels(program: &mut ProgramResult, settings: &Settings) {
    crate::ignore::apply(&program.sources, &mut program.diagnostics);
    settings.levels.apply(&mut program.diagnostics);
    pcl_diagnostics::sort_and_dedup(&mut program.diagnostics);
}

/// What each PATH stands for: itself, or with `--recursive` every program
/// under it. A directory under which `--recursive` finds nothing is a run
/// error.
fn program_paths(
    args: &CheckArgs,
    cwd: Option<&Path>,
    run_errors: &mut Vec<RunError>,
    foreign: &mut BTreeMap<PathBuf, u32>,
) -> Vec<PathBuf> {
    if !args.recursive {
        return args.paths.clone();
    }
    let mut out = Vec::new();
    for path in &args.paths {
        let shown = inputs::display_path(path, cwd);
        if !path.is_dir() {
            out.push(path.clone());
            continue;
        }
        let walk = crate::discover::programs(path);
        foreign.extend(walk.foreign);
        let found = walk.found;
        for (dir, message) in walk.errors {
            let dir = inputs::display_path(&dir, cwd);
            run_errors.push(RunError::new(
                dir.clone(),
                format!("cannot read `{dir}`: {message}"),
            ));
        }
        if found.is_empty() {
            run_errors.push(RunError::new(
                shown.clone(),
                format!("no .pp files under `{shown}`"),
            ));
        }
        out.extend(found);
    }
    out
}

/// The `pcl.toml` of every program, each loaded once.
struct ConfigSet {
    /// Valid files, in the order found.
    loaded: Vec<Config>,
    /// Per program: `Ok(Some(i))` uses `loaded[i]`, `Ok(None)` no file,
    /// `Err(())` a file that failed to load (the program is not checked).
    of_program: Vec<Result<Option<usize>, ()>>,
    /// Files passed over because another user owns them.
    foreign: Vec<(PathBuf, u32)>,
}

impl ConfigSet {
    fn for_programs(
        args: &CheckArgs,
        paths: &[PathBuf],
        cwd: Option<&Path>,
        run_errors: &mut Vec<RunError>,
    ) -> ConfigSet {
        let mut set = ConfigSet {
            loaded: Vec::new(),
            of_program: Vec::with_capacity(paths.len()),
            foreign: Vec::new(),
        };
        if args.no_config {
            set.of_program = vec![Ok(None); paths.len()];
            return set;
        }
        let mut discovery = Discovery::default();
        let mut by_file: HashMap<PathBuf, Result<usize, ()>> = HashMap::new();
        for path in paths {
            let file = match &args.config {
                Some(file) => Some(file.clone()),
                None => discovery.find(&program_dir(path, args, cwd)),
            };
            let Some(file) = file else {
                set.of_program.push(Ok(None));
                continue;
            };
            let index = by_file.entry(file.clone()).or_insert_with(|| {
                let shown = inputs::display_path(&file, cwd);
                match config::load(&file) {
                    Ok(mut loaded) => {
                        loaded.path = PathBuf::from(&shown);
                        set.loaded.push(loaded);
                        Ok(set.loaded.len() - 1)
                    }
                    Err(message) => {
                        let message = message.replacen(&file.display().to_string(), &shown, 1);
                        run_errors.push(RunError::new(shown, message));
                        Err(())
                    }
                }
            });
            set.of_program.push(index.map(Some));
        }
        set.foreign = discovery.take_foreign();
        set
    }
}

/// The directory a program's `pcl.toml` is searched from: the directory
/// itself, a file's directory, or for `-` the directory of
/// `--stdin-filename` (else the current one). Absolute, so that the search
/// can go up to the filesystem root.
fn program_dir(path: &Path, args: &CheckArgs, cwd: Option<&Path>) -> PathBuf {
    let dir = if path.as_os_str() == "-" {
        args.stdin_filename
            .as_deref()
            .and_then(|n| Path::new(n).parent())
            .map(Path::to_path_buf)
            .unwrap_or_default()
    } else if path.is_dir() {
        path.to_path_buf()
    } else {
        path.parent().map(Path::to_path_buf).unwrap_or_default()
    };
    let dir = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    };
    match dir.canonicalize() {
        Ok(abs) => abs,
        Err(_) => match cwd {
            Some(cwd) => cwd.join(dir),
            None => dir,
        },
    }
}

/// A progress bar on stderr: only for the human format, on a terminal,
/// with more than [`PROGRESS_MIN_PROGRAMS`] programs.
fn progress_bar(args: &CheckArgs, total: usize) -> Option<ProgressBar> {
    let show = args.format == Format::Human
        && args.emit.is_none()
        && total > PROGRESS_MIN_PROGRAMS
        && io::stderr().is_terminal();
    show.then(|| {
        let bar = ProgressBar::with_draw_target(
            u64::try_from(total).ok(),
            indicatif::ProgressDrawTarget::stderr(),
        );
        if let Ok(style) = ProgressStyle::with_template("checking {bar:40} {pos}/{len} programs") {
            bar.set_style(style);
        }
        bar
    })
}

/// Runs with more programs than this show a progress bar.
pub const PROGRESS_MIN_PROGRAMS: usize = 50;

/// The schema directories (`pcl.toml`'s, then `--schema-dir`s), then
/// `$PULUMI_HOME/schemas` when it exists and the schema cache is not off.
pub(crate) fn loader(settings: &Settings) -> CachingLoader<ChainLoader> {
    let mut loaders: Vec<Box<dyn SchemaLoader>> = vec![Box::new(DirLoader::new(
        settings.schema_dirs.iter().cloned(),
    ))];
    if settings.schema_cache {
        if let Some(cache) = pcl_schema::pulumi_schema_cache_dir().filter(|d| d.is_dir()) {
            loaders.push(Box::new(DirLoader::new([cache])));
        }
    }
    CachingLoader::new(ChainLoader::new(loaders))
}

/// Reads every program whose `pcl.toml` loaded; unreadable ones are run
/// errors. Each comes with its configuration's index. A PATH given again,
/// however spelt (`./x` and `x`, a link to it), is checked once.
fn read_inputs(
    args: &CheckArgs,
    paths: &[PathBuf],
    configs: &[Result<Option<usize>, ()>],
    cwd: Option<&Path>,
    run_errors: &mut Vec<RunError>,
) -> Vec<(Option<usize>, ProgramInput)> {
    let mut stdin: Option<Vec<u8>> = None;
    let mut read = Vec::new();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut roots = RootCache::default();
    let root = args.root.as_deref();
    for (path, config) in paths.iter().zip(configs) {
        let Ok(config) = config else {
            continue;
        };
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
                        run_errors.push(RunError::new(
                            "-",
                            format!("cannot read standard input: {e}"),
                        ));
                        continue;
                    }
                },
            };
            let name = args.stdin_filename.as_deref();
            inputs::read_program_cached(Source::Stdin { text, name }, cwd, root, &mut roots)
        } else {
            inputs::read_program_cached(Source::Path(path), cwd, root, &mut roots)
        };
        match result {
            Ok(input) => read.push((*config, input)),
            Err(mut message) => {
                // A tree of programs is not one program.
                if !args.recursive && message.starts_with("no .pp files") && has_subdirectory(path)
                {
                    message.push_str("; to check the programs under it, add `--recursive`");
                }
                run_errors.push(RunError::new(inputs::display_path(path, cwd), message))
            }
        }
    }
    read
}

/// Whether `dir` holds a directory.
fn has_subdirectory(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_type().is_ok_and(|t| t.is_dir()))
    })
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
    progress: Option<&ProgressBar>,
) -> Vec<ProgramResult> {
    let test_panic = std::env::var_os(TEST_PANIC_ENV).is_some_and(|v| v == "1");
    let bind = |(input, siblings): (ProgramInput, Option<Siblings>)| {
        if test_panic {
            panic!("{TEST_PANIC_ENV} is set");
        }
        let result = bind_one(input, siblings.as_ref(), loader, policy);
        if let Some(bar) = progress {
            bar.inc(1);
        }
        result
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

/// Writes a machine format on stdout (and, for the line formats, the
/// `--max-diagnostics` note on stderr). `pcl parse` writes the same way.
pub(crate) fn write_machine(report: &Report, format: Format) -> io::Result<()> {
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
        use crate::args::PolicyFlags;
        let policy = |flags: &PolicyFlags| pcl_config::PolicyFlags::from(*flags).bind_policy();
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
