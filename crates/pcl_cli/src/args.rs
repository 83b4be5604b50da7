//! Hand-rolled argument parsing.
//!
//! The grammar is small enough that a parser library would cost more build
//! time than it saves: `pcl [--help|--version]`,
//! `pcl parse [--emit tokens|tree|source] PATH...` and
//! `pcl check [flags] PATH...`. Options may appear anywhere after the
//! subcommand; `--` ends option parsing; `--opt=value` and `--opt value`
//! are the same.

use std::path::PathBuf;

pub const USAGE: &str = "\
usage: pcl parse [--emit tokens|tree|source] PATH...
       pcl check [options] PATH...
       pcl fmt [--check] [--diff] [-r] [PATH...]
       pcl lsp [--stdio]

commands:
  parse    parse .pp files and report syntax errors
  check    bind programs against their package schemas and report errors
  fmt      format .pp files in the canonical (hclwrite) layout
  lsp      run the language server on stdin/stdout (settings come from
           the client's initializationOptions; see the README)

parse options:
  --emit tokens   print every token (kind and byte range), one per line
  --emit tree     print the syntax tree
  --emit source   print the source rebuilt from the tree
  PATH            a .pp file, or a directory whose *.pp files are parsed

check options:
  --schema-dir DIR     read package schemas (<name>-<version>.json or <name>.json)
                       from DIR; repeatable, earlier directories win
  --no-schema-cache    do not read Pulumi's schema cache ($PULUMI_HOME/schemas,
                       default ~/.pulumi/schemas), searched after the --schema-dirs
  --lenient            all five lenient options below
  --allow-missing-variables   undefined names are warnings
  --allow-missing-properties  schema object properties are all optional and
                              unknown properties are warnings
  --skip-resource-typecheck   resource problems are warnings; unknown resources
                              are `dynamic`
  --skip-invoke-typecheck     invoke problems (unknown packages, functions) are silent
  --skip-range-typecheck      `cannot iterate over ...` is a warning
  --prefer-output-versioned-invokes  invoke picks the output-versioned form
  --format FORMAT      human: ariadne reports on stderr (default)
                       short: `path:line:col: severity[code]: message` lines
                       json: one JSON document; sarif: SARIF 2.1.0;
                       github: GitHub Actions workflow commands
                       (all but human write to stdout only)
  --color auto|always|never   colour human reports (auto: stderr is a terminal,
                              NO_COLOR is unset or empty, TERM is not dumb)
  --deny warnings      warnings fail the check (exit status 1)
  --max-diagnostics N  print at most N diagnostics (the rest are counted)
  --jobs N             check up to N programs in parallel (default: CPUs)
  --stdin-filename NAME  the file name used for `-` (standard input)
  --emit model         print the bound programs as JSON on stdout (see
                       docs/model.md); diagnostics go to stderr
  PATH                 a .pp file (a one-file program), a directory whose
                       *.pp files form one program (a directory whose
                       Pulumi.yaml says `runtime: pcl` uses its `main`
                       directory), or `-` for standard input

fmt options:
  --check              change nothing; list the files that would change
  --diff               change nothing; print a unified diff
  --recursive, -r      directories include their subdirectories
  --stdin-filename NAME  the file name used for `-` in messages
  PATH                 a file, a directory (its *.pp files) or `-` (standard
                       input to standard output); default: `.`

exit status: 0 no errors (warnings allowed), 1 errors found (or warnings
             with --deny warnings), 2 bad arguments, unreadable input or
             internal error; fmt: 0 nothing to change or all written,
             1 something would change (--check, --diff), 2 bad arguments,
             unreadable input or syntax errors
";

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    Version,
    Parse(ParseArgs),
    Check(CheckArgs),
    Fmt(crate::fmt_cmd::FmtArgs),
    /// `pcl lsp [--stdio]`.
    Lsp,
}

/// How `pcl check` prints diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// ariadne reports on stderr.
    #[default]
    Human,
    /// `path:line:col: severity[code]: message` lines on stdout.
    Short,
    /// One JSON document on stdout.
    Json,
    /// SARIF 2.1.0 on stdout.
    Sarif,
    /// GitHub Actions workflow commands on stdout.
    Github,
}

impl Format {
    /// Whether this format writes to stdout (all but `human`).
    pub fn is_machine(self) -> bool {
        self != Format::Human
    }
}

/// What `pcl check` prints besides diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CheckEmit {
    /// Only diagnostics.
    #[default]
    Diagnostics,
    /// The bound programs as JSON on stdout.
    Model,
}

/// When human reports are coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Color {
    /// When stderr is a terminal and `NO_COLOR` is unset or empty.
    #[default]
    Auto,
    Always,
    Never,
}

/// The bind options `pcl check` accepts, one field per flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PolicyFlags {
    pub lenient: bool,
    pub allow_missing_variables: bool,
    pub allow_missing_properties: bool,
    pub skip_resource_typecheck: bool,
    pub skip_invoke_typecheck: bool,
    pub skip_range_typecheck: bool,
    pub prefer_output_versioned_invokes: bool,
}

/// Arguments of `pcl check`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckArgs {
    pub schema_dirs: Vec<PathBuf>,
    /// `--no-schema-cache`: skip `$PULUMI_HOME/schemas`.
    pub no_schema_cache: bool,
    pub policy: PolicyFlags,
    pub format: Format,
    pub color: Color,
    /// `--deny warnings`.
    pub deny_warnings: bool,
    pub max_diagnostics: Option<usize>,
    /// `--jobs N`; `None`: one per CPU.
    pub jobs: Option<usize>,
    pub stdin_filename: Option<String>,
    pub emit: CheckEmit,
    pub paths: Vec<PathBuf>,
}

/// What `pcl parse` prints on stdout besides diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Emit {
    /// Nothing: only diagnostics on stderr.
    #[default]
    Nothing,
    Tokens,
    Tree,
    Source,
}

/// Arguments of `pcl parse`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseArgs {
    pub emit: Emit,
    pub paths: Vec<PathBuf>,
}

/// Parses `args` (without the program name).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut iter = args.iter();
    let Some(first) = iter.next() else {
        return Err("missing command".to_string());
    };
    match first.as_str() {
        "-h" | "--help" | "help" => Ok(Command::Help),
        "-V" | "--version" => Ok(Command::Version),
        "parse" => parse_parse(iter.as_slice()).map(Command::Parse),
        "check" => parse_check(iter.as_slice()).map(Command::Check),
        "fmt" => crate::fmt_cmd::parse_args(iter.as_slice()).map(Command::Fmt),
        "lsp" => match iter.as_slice() {
            [] => Ok(Command::Lsp),
            [flag] if flag == "--stdio" => Ok(Command::Lsp),
            [other, ..] => Err(format!("unknown argument `{other}` for `pcl lsp`")),
        },
        other if other.starts_with('-') => Err(format!("unknown option `{other}`")),
        other => Err(format!("unknown command `{other}`")),
    }
}

fn parse_parse(args: &[String]) -> Result<ParseArgs, String> {
    let mut emit = None;
    let mut paths = Vec::new();
    let mut iter = args.iter();
    let mut options_done = false;
    while let Some(arg) = iter.next() {
        if options_done || !arg.starts_with('-') || arg == "-" {
            paths.push(PathBuf::from(arg));
            continue;
        }
        let value = match arg.as_str() {
            "--" => {
                options_done = true;
                continue;
            }
            "--emit" => match iter.next() {
                Some(value) => value.as_str(),
                None => return Err("`--emit` needs a value: tokens, tree or source".to_string()),
            },
            other => match other.strip_prefix("--emit=") {
                Some(value) => value,
                None => return Err(format!("unknown option `{other}` for `parse`")),
            },
        };
        if emit.is_some() {
            return Err("`--emit` given more than once".to_string());
        }
        emit = Some(parse_emit(value)?);
    }
    if paths.is_empty() {
        return Err("`parse` needs at least one PATH".to_string());
    }
    Ok(ParseArgs {
        emit: emit.unwrap_or_default(),
        paths,
    })
}

/// Splits `--name=value` into its parts; other arguments are returned whole.
fn split_value(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((name, value)) if name.starts_with("--") => (name, Some(value)),
        _ => (arg, None),
    }
}

fn parse_check(args: &[String]) -> Result<CheckArgs, String> {
    let mut out = CheckArgs {
        schema_dirs: Vec::new(),
        no_schema_cache: false,
        policy: PolicyFlags::default(),
        format: Format::default(),
        color: Color::default(),
        deny_warnings: false,
        max_diagnostics: None,
        jobs: None,
        stdin_filename: None,
        emit: CheckEmit::default(),
        paths: Vec::new(),
    };
    let (mut format_seen, mut color_seen, mut emit_seen) = (false, false, false);
    let mut iter = args.iter();
    let mut options_done = false;
    while let Some(arg) = iter.next() {
        if options_done || !arg.starts_with('-') || arg == "-" {
            out.paths.push(PathBuf::from(arg));
            continue;
        }
        if arg == "--" {
            options_done = true;
            continue;
        }
        let (name, inline) = split_value(arg);
        let flag = match name {
            "--lenient" => Some(&mut out.policy.lenient),
            "--allow-missing-variables" => Some(&mut out.policy.allow_missing_variables),
            "--allow-missing-properties" => Some(&mut out.policy.allow_missing_properties),
            "--skip-resource-typecheck" => Some(&mut out.policy.skip_resource_typecheck),
            "--skip-invoke-typecheck" => Some(&mut out.policy.skip_invoke_typecheck),
            "--skip-range-typecheck" => Some(&mut out.policy.skip_range_typecheck),
            "--prefer-output-versioned-invokes" => {
                Some(&mut out.policy.prefer_output_versioned_invokes)
            }
            "--no-schema-cache" => Some(&mut out.no_schema_cache),
            _ => None,
        };
        if let Some(flag) = flag {
            if inline.is_some() {
                return Err(format!("`{name}` takes no value"));
            }
            *flag = true;
            continue;
        }
        let mut value = |what: &str| -> Result<String, String> {
            match inline {
                Some(v) => Ok(v.to_string()),
                None => iter
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("`{name}` needs a value: {what}")),
            }
        };
        match name {
            "--schema-dir" => {
                let dir = value("a directory")?;
                if dir.is_empty() {
                    return Err("`--schema-dir` needs a non-empty directory".to_string());
                }
                out.schema_dirs.push(PathBuf::from(dir));
            }
            "--format" => {
                let v = value("human, short, json, sarif or github")?;
                if std::mem::replace(&mut format_seen, true) {
                    return Err("`--format` given more than once".to_string());
                }
                out.format = match v.as_str() {
                    "human" => Format::Human,
                    "short" => Format::Short,
                    "json" => Format::Json,
                    "sarif" => Format::Sarif,
                    "github" => Format::Github,
                    other => {
                        return Err(format!(
                            "unknown `--format` value `{other}`; \
                             expected human, short, json, sarif or github"
                        ))
                    }
                };
            }
            "--deny" | "-D" => {
                let v = value("warnings")?;
                if v != "warnings" {
                    return Err(format!(
                        "unknown `--deny` value `{v}`; only `warnings` is supported"
                    ));
                }
                out.deny_warnings = true;
            }
            "--max-diagnostics" => {
                let v = value("a number")?;
                let n = v
                    .parse::<usize>()
                    .map_err(|_| format!("`--max-diagnostics` needs a number, not `{v}`"))?;
                out.max_diagnostics = Some(n);
            }
            "--jobs" | "-j" => {
                let v = value("a number of at least 1")?;
                match v.parse::<usize>() {
                    Ok(n) if n >= 1 => out.jobs = Some(n),
                    _ => return Err(format!("`--jobs` needs a number of at least 1, not `{v}`")),
                }
            }
            "--stdin-filename" => {
                let v = value("a file name")?;
                if v.is_empty() {
                    return Err("`--stdin-filename` needs a non-empty name".to_string());
                }
                out.stdin_filename = Some(v);
            }
            "--emit" => {
                let v = value("model")?;
                if std::mem::replace(&mut emit_seen, true) {
                    return Err("`--emit` given more than once".to_string());
                }
                out.emit = match v.as_str() {
                    "model" => CheckEmit::Model,
                    other => {
                        return Err(format!(
                            "unknown `--emit` value `{other}` for `check`; expected model"
                        ))
                    }
                };
            }
            "--color" | "--colour" => {
                let v = value("auto, always or never")?;
                if std::mem::replace(&mut color_seen, true) {
                    return Err("`--color` given more than once".to_string());
                }
                out.color = match v.as_str() {
                    "auto" => Color::Auto,
                    "always" => Color::Always,
                    "never" => Color::Never,
                    other => {
                        return Err(format!(
                            "unknown `--color` value `{other}`; expected auto, always or never"
                        ))
                    }
                };
            }
            other => return Err(format!("unknown option `{other}` for `check`")),
        }
    }
    if out.paths.is_empty() {
        return Err("`check` needs at least one PATH".to_string());
    }
    let stdin_count = out.paths.iter().filter(|p| p.as_os_str() == "-").count();
    if stdin_count > 1 {
        return Err("`-` (standard input) given more than once".to_string());
    }
    if out.stdin_filename.is_some() && stdin_count == 0 {
        return Err("`--stdin-filename` needs `-` among the PATHs".to_string());
    }
    if out.emit == CheckEmit::Model && out.format.is_machine() {
        return Err(
            "`--emit model` writes to stdout; it cannot be combined with `--format` \
             other than human"
                .to_string(),
        );
    }
    Ok(out)
}

fn parse_emit(value: &str) -> Result<Emit, String> {
    match value {
        "tokens" => Ok(Emit::Tokens),
        "tree" => Ok(Emit::Tree),
        "source" => Ok(Emit::Source),
        other => Err(format!(
            "unknown `--emit` value `{other}`; expected tokens, tree or source"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_emit_forms() {
        let expected = Command::Parse(ParseArgs {
            emit: Emit::Tree,
            paths: vec![PathBuf::from("a.pp"), PathBuf::from("dir")],
        });
        assert_eq!(
            parse(&strings(&["parse", "--emit", "tree", "a.pp", "dir"])),
            Ok(expected.clone())
        );
        assert_eq!(
            parse(&strings(&["parse", "a.pp", "--emit=tree", "dir"])),
            Ok(expected)
        );
    }

    #[test]
    fn double_dash_ends_options() {
        let parsed = parse(&strings(&["parse", "--", "--emit"]));
        assert_eq!(
            parsed,
            Ok(Command::Parse(ParseArgs {
                emit: Emit::Nothing,
                paths: vec![PathBuf::from("--emit")],
            }))
        );
    }

    #[test]
    fn parses_check_flags() {
        let parsed = parse(&strings(&[
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
        ]));
        let Ok(Command::Check(args)) = parsed else {
            panic!("{parsed:?}");
        };
        assert_eq!(args.schema_dirs, [PathBuf::from("a"), PathBuf::from("b")]);
        assert_eq!(args.paths, [PathBuf::from("prog"), PathBuf::from("x.pp")]);
        assert!(args.policy.lenient && args.policy.skip_range_typecheck);
        assert!(!args.policy.allow_missing_variables);
        assert_eq!(args.format, Format::Short);
        assert_eq!(args.color, Color::Never);
        assert!(!args.deny_warnings && !args.no_schema_cache);
    }

    #[test]
    fn parses_new_check_flags() {
        let parsed = parse(&strings(&[
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
            "-",
            "dir",
        ]));
        let Ok(Command::Check(args)) = parsed else {
            panic!("{parsed:?}");
        };
        assert_eq!(args.format, Format::Sarif);
        assert!(args.deny_warnings && args.no_schema_cache);
        assert_eq!(args.max_diagnostics, Some(3));
        assert_eq!(args.jobs, Some(2));
        assert_eq!(args.stdin_filename.as_deref(), Some("x.pp"));
        assert_eq!(args.paths, [PathBuf::from("-"), PathBuf::from("dir")]);
        let parsed = parse(&strings(&["check", "--emit", "model", "a.pp"]));
        let Ok(Command::Check(args)) = parsed else {
            panic!("{parsed:?}");
        };
        assert_eq!(args.emit, CheckEmit::Model);
    }

    #[test]
    fn rejects_bad_check_arguments() {
        for args in [
            &["check"][..],
            &["check", "--schema-dir"][..],
            &["check", "--schema-dir=", "a.pp"][..],
            &["check", "--lenient=yes", "a.pp"][..],
            &["check", "--format", "xml", "a.pp"][..],
            &["check", "--deny", "errors", "a.pp"][..],
            &["check", "--jobs", "0", "a.pp"][..],
            &["check", "--max-diagnostics", "-1", "a.pp"][..],
            &["check", "--stdin-filename", "x.pp", "a.pp"][..],
            &["check", "-", "-"][..],
            &["check", "--emit", "model", "--format", "json", "a.pp"][..],
            &["check", "--format", "short", "--format", "short", "a.pp"][..],
            &["check", "--color", "sometimes", "a.pp"][..],
            &["check", "--emit", "tree", "a.pp"][..],
            &["check", "--emit", "model", "--emit", "model", "a.pp"][..],
            &["check", "--strict", "a.pp"][..],
        ] {
            assert!(parse(&strings(args)).is_err(), "{args:?}");
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
            &["parse", "--bogus", "a.pp"][..],
        ] {
            assert!(parse(&strings(args)).is_err(), "{args:?}");
        }
    }
}
