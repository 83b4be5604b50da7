//! The command line, declared with clap's derive API.
//!
//! `pcl parse`, `pcl check`, `pcl explain` and `pcl completions`, each with
//! its own `--help`. Clap does the usage errors (a short message, a "did
//! you mean" for a misspelt flag or command, the usage line) and the
//! attached short forms (`-Dwarnings`, `-j2`). What clap cannot express
//! (`--deny warnings` beside `--deny CODE`, one `-` at most) is checked in
//! [`Cli::finish`], which reports through clap too, so that every usage
//! error looks the same.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};

/// The `pcl` command line.
#[derive(Clone, Debug, Parser)]
#[command(
    name = "pcl",
    version,
    about = "Parse and check PCL (Pulumi Configuration Language) programs",
    after_help = "Exit status: 0 no errors (warnings allowed), 1 errors found (or warnings \
                  under --deny warnings), 2 bad arguments, unreadable input, bad \
                  configuration or internal error."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// A subcommand.
#[derive(Clone, Debug, Subcommand)]
#[allow(clippy::large_enum_variant)] // one per run; boxing buys nothing
pub enum Command {
    /// Parse .pp files and report syntax errors
    Parse(ParseArgs),
    /// Bind programs against their package schemas and report every problem
    Check(CheckArgs),
    /// Format .pp files in the canonical (hclwrite) layout
    Fmt(FmtCli),
    /// Convert a program to another language (Pulumi YAML), as `pulumi
    /// convert`'s generator does
    Convert(ConvertArgs),
    /// Explain a diagnostic code: meaning, an example, how to fix it
    Explain(ExplainArgs),
    /// Print a shell completion script on stdout
    Completions(CompletionsArgs),
    /// Run the language server on stdin/stdout (settings come from the
    /// client's initializationOptions)
    Lsp(LspArgs),
}

/// How diagnostics are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    /// ariadne reports on stderr, then a summary line
    #[default]
    Human,
    /// `path:line:col: severity[code]: message` lines on stdout
    Short,
    /// one JSON document on stdout
    Json,
    /// SARIF 2.1.0 on stdout
    Sarif,
    /// GitHub Actions workflow commands on stdout
    Github,
}

impl Format {
    /// Whether this format writes to stdout (all but `human`).
    pub fn is_machine(self) -> bool {
        self != Format::Human
    }
}

/// What `pcl check --emit` prints besides diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckEmit {
    /// the bound programs as JSON on stdout (docs/model.md)
    Model,
}

/// When human reports are coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, ValueEnum)]
pub enum Color {
    /// when stderr is a terminal, NO_COLOR is unset or empty and TERM is not dumb
    #[default]
    Auto,
    Always,
    Never,
}

/// Where `pcl check` and `pcl convert` read package schemas from.
#[derive(Clone, Debug, PartialEq, Eq, Default, Args)]
pub struct SchemaFlags {
    /// Read package schemas (<name>-<version>.json or <name>.json) from DIR;
    /// repeatable, earlier directories win
    #[arg(long = "schema-dir", value_name = "DIR", value_parser = path_value())]
    pub schema_dirs: Vec<PathBuf>,
    /// Do not read Pulumi's schema cache ($PULUMI_HOME/schemas, default ~/.pulumi/schemas)
    #[arg(long)]
    pub no_schema_cache: bool,
}

/// The bind options `pcl check` accepts, one field per flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Args)]
pub struct PolicyFlags {
    /// All five lenient options below (Pulumi's NonStrictBindOptions)
    #[arg(long)]
    pub lenient: bool,
    /// Undefined names are warnings
    #[arg(long)]
    pub allow_missing_variables: bool,
    /// Every schema object property is optional; unknown properties are warnings
    #[arg(long)]
    pub allow_missing_properties: bool,
    /// Resource problems are warnings; unknown resource types are `dynamic`
    #[arg(long)]
    pub skip_resource_typecheck: bool,
    /// `invoke` problems (unknown packages and functions) are silent
    #[arg(long)]
    pub skip_invoke_typecheck: bool,
    /// `cannot iterate over …` is a warning
    #[arg(long)]
    pub skip_range_typecheck: bool,
    /// `invoke` picks the output-versioned form when it can
    #[arg(long)]
    pub prefer_output_versioned_invokes: bool,
}

impl From<PolicyFlags> for pcl_config::PolicyFlags {
    fn from(f: PolicyFlags) -> pcl_config::PolicyFlags {
        pcl_config::PolicyFlags {
            lenient: f.lenient,
            allow_missing_variables: f.allow_missing_variables,
            allow_missing_properties: f.allow_missing_properties,
            skip_resource_typecheck: f.skip_resource_typecheck,
            skip_invoke_typecheck: f.skip_invoke_typecheck,
            skip_range_typecheck: f.skip_range_typecheck,
            prefer_output_versioned_invokes: f.prefer_output_versioned_invokes,
        }
    }
}

/// The `[codes]` choices of the command line: each code's reporting level.
pub use pcl_config::CodeLevels;

/// Arguments of `pcl check`.
#[derive(Clone, Debug, PartialEq, Eq, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub schemas: SchemaFlags,
    #[command(flatten)]
    pub policy: PolicyFlags,
    /// How diagnostics are printed (all but human write to stdout only)
    #[arg(long, value_enum, default_value_t, value_name = "FORMAT")]
    pub format: Format,
    /// Colour the human reports
    #[arg(
        long,
        alias = "colour",
        value_enum,
        default_value_t,
        value_name = "WHEN"
    )]
    pub color: Color,
    /// `warnings`: warnings fail the check (exit status 1); a CODE: that code
    /// is reported as an error; repeatable
    #[arg(
        short = 'D',
        long = "deny",
        value_name = "warnings|CODE",
        value_parser = non_empty
    )]
    pub deny: Vec<String>,
    /// Report CODE as a warning; repeatable
    #[arg(long = "warn", value_name = "CODE", value_parser = non_empty)]
    pub warn: Vec<String>,
    /// Do not report CODE; repeatable
    #[arg(long = "allow", value_name = "CODE", value_parser = non_empty)]
    pub allow: Vec<String>,
    /// `--deny warnings`, separated from the `--deny CODE`s by [`Cli::finish`].
    #[arg(skip)]
    pub deny_warnings: bool,
    /// Print at most the first N diagnostics and say how many were left out
    #[arg(long, value_name = "N")]
    pub max_diagnostics: Option<usize>,
    /// Check up to N programs at once (default: one per CPU)
    #[arg(short = 'j', long, value_name = "N", value_parser = at_least_one)]
    pub jobs: Option<usize>,
    /// The file name shown for `-` (standard input)
    #[arg(long, value_name = "NAME", value_parser = non_empty)]
    pub stdin_filename: Option<String>,
    /// Write the bound programs as JSON on stdout (docs/model.md);
    /// diagnostics go to stderr
    #[arg(long, value_enum, value_name = "WHAT")]
    pub emit: Option<CheckEmit>,
    /// Check every program under each PATH: each directory holding .pp files
    /// and each Pulumi.yaml project with `runtime: pcl`
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// Read settings from FILE instead of the nearest pcl.toml
    #[arg(long, value_name = "FILE", conflicts_with = "no_config", value_parser = path_value())]
    pub config: Option<PathBuf>,
    /// Ignore every pcl.toml
    #[arg(long)]
    pub no_config: bool,
    /// the project root components must stay inside (default: the nearest
    /// directory holding pcl.toml, Pulumi.yaml or .git)
    #[arg(long, value_name = "DIR", value_parser = path_value())]
    pub root: Option<PathBuf>,
    /// A .pp file (a one-file program), a directory whose *.pp files form
    /// one program (a Pulumi.yaml with `runtime: pcl` uses its `main`
    /// directory), or `-` for standard input
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
}

impl CheckArgs {
    /// The `--allow`, `--warn` and `--deny CODE` choices.
    pub fn code_levels(&self) -> CodeLevels {
        CodeLevels {
            allow: self.allow.clone(),
            warn: self.warn.clone(),
            deny: self
                .deny
                .iter()
                .filter(|c| c.as_str() != "warnings")
                .cloned()
                .collect(),
        }
    }
}

/// What `pcl parse --emit` prints on stdout besides diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Emit {
    /// every token (kind, byte range, text), one per line
    Tokens,
    /// the syntax tree
    Tree,
    /// the source rebuilt from the tree (byte-identical)
    Source,
}

/// Arguments of `pcl parse`.
#[derive(Clone, Debug, PartialEq, Eq, Args)]
pub struct ParseArgs {
    /// What to print on stdout besides diagnostics
    #[arg(long, value_enum, value_name = "WHAT")]
    pub emit: Option<Emit>,
    /// How diagnostics are printed (all but human write to stdout only)
    #[arg(long, value_enum, default_value_t, value_name = "FORMAT")]
    pub format: Format,
    /// Colour the human reports
    #[arg(
        long,
        alias = "colour",
        value_enum,
        default_value_t,
        value_name = "WHEN"
    )]
    pub color: Color,
    /// A .pp file, a directory whose *.pp files are parsed (not recursive),
    /// or `-` for standard input
    #[arg(value_name = "PATH", required = true)]
    pub paths: Vec<PathBuf>,
}

/// Arguments of `pcl fmt` as the command line declares them; the command
/// itself takes [`crate::fmt_cmd::FmtArgs`].
#[derive(Clone, Debug, PartialEq, Eq, Args)]
pub struct FmtCli {
    /// Change nothing; list the files that would change (exit status 1 if any)
    #[arg(long)]
    pub check: bool,
    /// Change nothing; print a unified diff (exit status 1 if any)
    #[arg(long)]
    pub diff: bool,
    /// Directories include their subdirectories
    #[arg(short = 'r', long)]
    pub recursive: bool,
    /// The file name used for `-` in messages
    #[arg(long, value_name = "NAME", value_parser = non_empty)]
    pub stdin_filename: Option<String>,
    /// A file, a directory (its *.pp files) or `-` (standard input to
    /// standard output); default: `.`
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

impl From<FmtCli> for crate::fmt_cmd::FmtArgs {
    fn from(cli: FmtCli) -> Self {
        crate::fmt_cmd::FmtArgs {
            paths: cli.paths,
            recursive: cli.recursive,
            check: cli.check,
            diff: cli.diff,
            stdin_filename: cli.stdin_filename,
        }
    }
}

/// What `pcl convert --to` converts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ConvertTarget {
    /// Pulumi YAML (`Main.yaml`), as pulumi-yaml's generator writes it
    Yaml,
}

/// Arguments of `pcl convert`.
#[derive(Clone, Debug, PartialEq, Eq, Args)]
pub struct ConvertArgs {
    /// The language to convert to
    #[arg(long, value_enum, value_name = "TARGET")]
    pub to: ConvertTarget,
    /// Write DIR/Main.yaml (creating DIR) instead of printing on stdout
    #[arg(short = 'o', long = "output", value_name = "DIR", value_parser = path_value())]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub schemas: SchemaFlags,
    #[command(flatten)]
    pub policy: PolicyFlags,
    /// Colour the diagnostics
    #[arg(
        long,
        alias = "colour",
        value_enum,
        default_value_t,
        value_name = "WHEN"
    )]
    pub color: Color,
    /// A .pp file, a program directory, a Pulumi project, or `-` for
    /// standard input
    #[arg(value_name = "PATH", value_parser = path_value())]
    pub path: PathBuf,
}

impl ConvertArgs {
    /// The `pcl check` arguments with the same schema sources and policy.
    pub fn as_check_args(&self) -> CheckArgs {
        CheckArgs {
            schemas: self.schemas.clone(),
            policy: self.policy,
            format: Format::Human,
            color: self.color,
            deny: Vec::new(),
            warn: Vec::new(),
            allow: Vec::new(),
            deny_warnings: false,
            max_diagnostics: None,
            jobs: None,
            stdin_filename: None,
            emit: None,
            recursive: false,
            config: None,
            no_config: true,
            root: None,
            paths: vec![self.path.clone()],
        }
    }
}

/// Arguments of `pcl explain`.
#[derive(Clone, Debug, PartialEq, Eq, Args)]
pub struct ExplainArgs {
    /// A diagnostic code, such as `undefined-variable`
    #[arg(value_name = "CODE", required_unless_present = "list")]
    pub code: Option<String>,
    /// List every code with its severity and one-line summary
    #[arg(long, conflicts_with = "code")]
    pub list: bool,
}

/// Arguments of `pcl lsp`.
#[derive(Clone, Debug, PartialEq, Eq, Args)]
pub struct LspArgs {
    /// Talk over stdin/stdout (the default and only transport)
    #[arg(long)]
    pub stdio: bool,
}

/// Arguments of `pcl completions`.
#[derive(Clone, Debug, PartialEq, Eq, Args)]
pub struct CompletionsArgs {
    /// The shell to write a completion script for
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

fn non_empty(value: &str) -> Result<String, String> {
    if value.is_empty() {
        Err("the value must not be empty".to_string())
    } else {
        Ok(value.to_string())
    }
}

fn at_least_one(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("expected a number of at least 1".to_string()),
    }
}

/// A path that is not empty; any bytes (a name need not be UTF-8).
fn path_value() -> impl clap::builder::TypedValueParser<Value = PathBuf> {
    use clap::builder::TypedValueParser;
    clap::builder::OsStringValueParser::new().try_map(|value: OsString| {
        if value.is_empty() {
            Err("the value must not be empty".to_string())
        } else {
            Ok(PathBuf::from(value))
        }
    })
}

impl Cli {
    /// Parses `args` (without the program name). A usage error, `--help`
    /// and `--version` come back as clap's error, which knows how to print
    /// itself and its exit status.
    pub fn parse_args<S: AsRef<OsStr>>(args: &[S]) -> Result<Cli, clap::Error> {
        let argv = std::iter::once(OsString::from("pcl"))
            .chain(args.iter().map(|a| a.as_ref().to_os_string()));
        let mut cli = Cli::try_parse_from(argv)?;
        cli.finish()?;
        Ok(cli)
    }

    /// The checks clap's declarations cannot express.
    fn finish(&mut self) -> Result<(), clap::Error> {
        let usage = |sub: &str, message: String| {
            let mut command = Cli::command();
            command.build();
            match command.find_subcommand_mut(sub) {
                Some(c) => c.error(ErrorKind::ArgumentConflict, message),
                None => Cli::command().error(ErrorKind::ArgumentConflict, message),
            }
        };
        match &mut self.command {
            Command::Check(check) => {
                check.deny_warnings = check.deny.iter().any(|d| d == "warnings");
                let stdin_count = check.paths.iter().filter(|p| p.as_os_str() == "-").count();
                if stdin_count > 1 {
                    return Err(usage(
                        "check",
                        "`-` (standard input) given more than once".to_string(),
                    ));
                }
                if check.stdin_filename.is_some() && stdin_count == 0 {
                    return Err(usage(
                        "check",
                        "`--stdin-filename` needs `-` among the PATHs".to_string(),
                    ));
                }
                if check.recursive && stdin_count > 0 {
                    return Err(usage(
                        "check",
                        "`--recursive` walks directories; it cannot read `-`".to_string(),
                    ));
                }
                if check.emit == Some(CheckEmit::Model) && check.format.is_machine() {
                    return Err(usage(
                        "check",
                        "`--emit model` writes to stdout; it cannot be combined with \
                         `--format` other than human"
                            .to_string(),
                    ));
                }
            }
            Command::Parse(parse) => {
                let stdin_count = parse.paths.iter().filter(|p| p.as_os_str() == "-").count();
                if stdin_count > 1 {
                    return Err(usage(
                        "parse",
                        "`-` (standard input) given more than once".to_string(),
                    ));
                }
                if parse.emit.is_some() && parse.format.is_machine() {
                    return Err(usage(
                        "parse",
                        "`--emit` writes to stdout; it cannot be combined with `--format` \
                         other than human"
                            .to_string(),
                    ));
                }
            }
            Command::Fmt(fmt) => {
                let stdin = fmt.paths.iter().filter(|p| p.as_os_str() == "-").count();
                if stdin > 0 && fmt.paths.len() > 1 {
                    return Err(usage(
                        "fmt",
                        "`-` (standard input) cannot be combined with other PATHs".to_string(),
                    ));
                }
                if fmt.stdin_filename.is_some() && stdin == 0 {
                    return Err(usage(
                        "fmt",
                        "`--stdin-filename` needs `-` as the PATH".to_string(),
                    ));
                }
            }
            Command::Explain(_)
            | Command::Completions(_)
            | Command::Lsp(_)
            | Command::Convert(_) => {}
        }
        Ok(())
    }
}

/// A usage error as printed: clap's message, then the usage line of the
/// command it is about when clap left it out (an invalid value), then the
/// hint to try `--help`.
pub fn render_usage_error<S: AsRef<OsStr>>(err: &clap::Error, args: &[S]) -> String {
    let text = err.render().to_string();
    if text.contains("Usage:") {
        return text;
    }
    let mut command = Cli::command();
    command.build();
    let sub = args.iter().find_map(|a| {
        let a = a.as_ref().to_str()?;
        command.find_subcommand(a).map(|c| c.get_name().to_string())
    });
    let usage = match sub.and_then(|name| command.find_subcommand_mut(&name)) {
        Some(c) => c.render_usage().to_string(),
        None => command.render_usage().to_string(),
    };
    match text.find("\nFor more information") {
        Some(at) => {
            let (head, tail) = text.split_at(at);
            format!("{head}\n{usage}\n{tail}")
        }
        None => format!("{text}\n{usage}\n"),
    }
}

/// Writes the completion script for `shell` to `out`.
pub fn write_completions(shell: clap_complete::Shell, out: &mut dyn std::io::Write) {
    clap_complete::generate(shell, &mut Cli::command(), "pcl", out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, clap::Error> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        Cli::parse_args(&args).map(|c| c.command)
    }

    fn fmt_args(args: &[&str]) -> Result<crate::fmt_cmd::FmtArgs, clap::Error> {
        let args: Vec<&str> = std::iter::once("fmt").chain(args.iter().copied()).collect();
        match parse(&args)? {
            Command::Fmt(fmt) => Ok(fmt.into()),
            other => panic!("not fmt: {other:?}"),
        }
    }

    #[test]
    fn parses_fmt_flags() {
        let args = fmt_args(&["--check", "a.pp", "-r", "--diff", "dir"]).unwrap();
        assert_eq!(
            args,
            crate::fmt_cmd::FmtArgs {
                paths: vec![PathBuf::from("a.pp"), PathBuf::from("dir")],
                recursive: true,
                check: true,
                diff: true,
                stdin_filename: None,
            }
        );
        let args = fmt_args(&["--stdin-filename=x.pp", "-"]).unwrap();
        assert_eq!(args.stdin_filename.as_deref(), Some("x.pp"));
        assert_eq!(fmt_args(&[]).unwrap(), crate::fmt_cmd::FmtArgs::default());
        let args = fmt_args(&["--", "--check"]).unwrap();
        assert_eq!(args.paths, [PathBuf::from("--check")]);
    }

    #[test]
    fn rejects_bad_fmt_arguments() {
        for args in [
            &["--bogus"][..],
            &["--check=yes"][..],
            &["-", "a.pp"][..],
            &["-", "-"][..],
            &["--stdin-filename", "x.pp", "a.pp"][..],
            &["--stdin-filename"][..],
            &["--stdin-filename=", "-"][..],
        ] {
            assert!(fmt_args(args).is_err(), "{args:?}");
        }
    }

    #[test]
    fn declarations_are_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn parses_emit_forms() {
        for args in [
            &["parse", "--emit", "tree", "a.pp", "dir"][..],
            &["parse", "a.pp", "--emit=tree", "dir"][..],
        ] {
            let Ok(Command::Parse(p)) = parse(args) else {
                panic!("{args:?}");
            };
            assert_eq!(p.emit, Some(Emit::Tree));
            assert_eq!(p.paths, [PathBuf::from("a.pp"), PathBuf::from("dir")]);
        }
    }

    #[test]
    fn double_dash_ends_options() {
        let Ok(Command::Parse(p)) = parse(&["parse", "--", "--emit"]) else {
            panic!();
        };
        assert_eq!(p.emit, None);
        assert_eq!(p.paths, [PathBuf::from("--emit")]);
    }

    #[test]
    fn parses_check_flags() {
        let parsed = parse(&[
            "check",
            "--schema-dir",
            "a",
            "prog",
            "--schema-dir=b",
            "--lenient",
            "--skip-range-typecheck",
            "--format=short",
            "--color",
            "never",
            "x.pp",
        ]);
        let Ok(Command::Check(args)) = parsed else {
            panic!("{parsed:?}");
        };
        assert_eq!(
            args.schemas.schema_dirs,
            [PathBuf::from("a"), PathBuf::from("b")]
        );
        assert_eq!(args.paths, [PathBuf::from("prog"), PathBuf::from("x.pp")]);
        assert!(args.policy.lenient && args.policy.skip_range_typecheck);
        assert!(!args.policy.allow_missing_variables);
        assert_eq!(args.format, Format::Short);
        assert_eq!(args.color, Color::Never);
        assert!(!args.deny_warnings && !args.schemas.no_schema_cache);
    }

    #[test]
    fn attached_short_forms_and_code_levels() {
        let parsed = parse(&[
            "check",
            "-Dwarnings",
            "-j2",
            "--deny",
            "unknown-property",
            "--warn=undefined-variable",
            "--allow",
            "a",
            "--allow",
            "b",
            "-r",
            "x",
        ]);
        let Ok(Command::Check(args)) = parsed else {
            panic!("{parsed:?}");
        };
        assert!(args.deny_warnings && args.recursive);
        assert_eq!(args.jobs, Some(2));
        let levels = args.code_levels();
        assert_eq!(levels.deny, ["unknown-property"]);
        assert_eq!(levels.warn, ["undefined-variable"]);
        assert_eq!(levels.allow, ["a", "b"]);
    }

    #[test]
    fn parses_new_check_flags() {
        let parsed = parse(&[
            "check",
            "--format=sarif",
            "--deny",
            "warnings",
            "--max-diagnostics=3",
            "--jobs",
            "2",
            "--no-schema-cache",
            "--stdin-filename",
            "x.pp",
            "--root",
            "r",
            "-",
            "dir",
        ]);
        let Ok(Command::Check(args)) = parsed else {
            panic!("{parsed:?}");
        };
        assert_eq!(args.format, Format::Sarif);
        assert!(args.deny_warnings && args.schemas.no_schema_cache);
        assert!(args.code_levels().deny.is_empty());
        assert_eq!(args.max_diagnostics, Some(3));
        assert_eq!(args.jobs, Some(2));
        assert_eq!(args.root, Some(PathBuf::from("r")));
        assert_eq!(args.stdin_filename.as_deref(), Some("x.pp"));
        assert_eq!(args.paths, [PathBuf::from("-"), PathBuf::from("dir")]);
        let Ok(Command::Check(args)) = parse(&["check", "--emit", "model", "a.pp"]) else {
            panic!();
        };
        assert_eq!(args.emit, Some(CheckEmit::Model));
    }

    #[test]
    fn rejects_bad_check_arguments() {
        for args in [
            &["check"][..],
            &["check", "--schema-dir"][..],
            &["check", "--schema-dir=", "a.pp"][..],
            &["check", "--lenient=yes", "a.pp"][..],
            &["check", "--format", "xml", "a.pp"][..],
            &["check", "--jobs", "0", "a.pp"][..],
            &["check", "--max-diagnostics", "-1", "a.pp"][..],
            &["check", "--stdin-filename", "x.pp", "a.pp"][..],
            &["check", "-", "-"][..],
            &["check", "-r", "-"][..],
            &["check", "--emit", "model", "--format", "json", "a.pp"][..],
            &["check", "--format", "short", "--format", "short", "a.pp"][..],
            &["check", "--color", "sometimes", "a.pp"][..],
            &["check", "--emit", "tree", "a.pp"][..],
            &["check", "--emit", "diagnostics", "a.pp"][..],
            &["check", "--emit", "model", "--emit", "model", "a.pp"][..],
            &["check", "--config", "a.toml", "--no-config", "a.pp"][..],
            &["check", "--strict", "a.pp"][..],
        ] {
            assert!(parse(args).is_err(), "{args:?}");
        }
    }

    #[test]
    fn rejects_bad_arguments() {
        for args in [
            &[][..],
            &["frobnicate"][..],
            &["--frob"][..],
            &["parse"][..],
            &["parse", "--emit"][..],
            &["parse", "--emit", "ast", "a.pp"][..],
            &["parse", "--emit", "tree", "--emit", "tree", "a.pp"][..],
            &["parse", "--emit", "tree", "--format", "json", "a.pp"][..],
            &["parse", "--bogus", "a.pp"][..],
            &["parse", "-", "-"][..],
            &["explain"][..],
            &["completions", "tcsh"][..],
        ] {
            assert!(parse(args).is_err(), "{args:?}");
        }
    }

    #[test]
    fn help_and_version_are_not_failures() {
        for args in [
            &["--help"][..],
            &["check", "--help"][..],
            &["parse", "-h"][..],
            &["help", "check"][..],
            &["--version"][..],
        ] {
            let err = parse(args).err();
            let kind = err.as_ref().map(|e| e.kind());
            assert!(
                matches!(
                    kind,
                    Some(ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                ),
                "{args:?}: {kind:?}"
            );
            assert_eq!(err.map(|e| e.exit_code()), Some(0));
        }
    }
}
