//! pcl_config: `pcl.toml`, the settings a project shares between its
//! editor, hooks and CI, read the same way by `pcl check` and `pcl lsp`.
//!
//! This crate owns the file only: finding it ([`Discovery`]: from a
//! program's directory upward to the filesystem root, the first
//! `pcl.toml` found wins, passing over one owned by another user), reading and validating it ([`load`], [`parse`]:
//! an unknown key or a bad value is an error naming the file, the line and
//! the key, with a "did you mean" where one helps), turning its bind
//! options into the binder's policy ([`PolicyFlags::bind_policy`], also
//! for the command line's flags and the editor's settings), and applying
//! its code levels to diagnostics ([`Levels`]). Paths in a file are relative to the
//! file's directory. How a file combines with the command line (`pcl
//! check`'s flags) or with an editor's `initializationOptions` belongs to
//! those front ends.
//!
//! ```toml
//! schema-dirs = ["schemas"]
//! schema-cache = true
//! [check]
//! lenient = false
//! deny = ["warnings"]
//! [codes]
//! allow = ["unknown-block-type"]
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use pcl_diagnostics::{Code, Diagnostic, Severity};

/// The file name searched for.
pub const FILE_NAME: &str = "pcl.toml";

/// The largest `pcl.toml` read (a settings file is a few lines).
pub const MAX_FILE_BYTES: u64 = pcl_diagnostics::read::MAX_SETTINGS_BYTES;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawFile {
    schema_dirs: Option<Vec<Spanned<String>>>,
    schema_cache: Option<bool>,
    check: Option<RawCheck>,
    codes: Option<RawCodes>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCheck {
    lenient: Option<bool>,
    allow_missing_variables: Option<bool>,
    allow_missing_properties: Option<bool>,
    skip_resource_typecheck: Option<bool>,
    skip_invoke_typecheck: Option<bool>,
    skip_range_typecheck: Option<bool>,
    prefer_output_versioned_invokes: Option<bool>,
    deny: Option<Vec<Spanned<String>>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCodes {
    allow: Option<Vec<Spanned<String>>>,
    warn: Option<Vec<Spanned<String>>>,
    deny: Option<Vec<Spanned<String>>>,
}

/// One `pcl.toml`, validated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Config {
    /// The file, as given or found.
    pub path: PathBuf,
    /// `schema-dirs`, relative to the file's directory.
    pub schema_dirs: Vec<PathBuf>,
    /// `schema-cache`; `None` when not set.
    pub schema_cache: Option<bool>,
    /// `[check]`'s bind options (an unset key is `false`).
    pub policy: PolicyFlags,
    /// `[check] deny = ["warnings"]`.
    pub deny_warnings: bool,
    /// `[codes]`, and `[check] deny`'s codes.
    pub codes: CodeLevels,
}

/// Reads and validates `path`. The error is one line naming the file, the
/// line and the key.
pub fn load(path: &Path, known: Option<&[Code]>) -> Result<Config, String> {
    use pcl_diagnostics::read::{read_regular_file, ReadError};
    let shown = path.display().to_string();
    // A FIFO or a device (`--config /dev/zero`) is refused unread; the
    // size is checked while reading too.
    let bytes = match read_regular_file(path, MAX_FILE_BYTES) {
        Ok(bytes) => bytes,
        Err(ReadError::TooLarge { .. }) => {
            return Err(format!(
                "`{shown}` is larger than {MAX_FILE_BYTES} bytes; it is not a pcl.toml"
            ))
        }
        Err(e) => return Err(format!("cannot read `{shown}`: {e}")),
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "cannot read `{shown}`: not valid UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    parse(&text, path, known)
}

/// Parses the text of a `pcl.toml` found at `path`. With `known`, every
/// code the file names must be one of them (else an error with a "did you
/// mean"); with `None`, code names are taken as written.
pub fn parse(text: &str, path: &Path, known: Option<&[Code]>) -> Result<Config, String> {
    let shown = path.display().to_string();
    let raw: RawFile = toml::from_str(text).map_err(|e| toml_error(&shown, text, &e))?;
    let base = path.parent().unwrap_or(Path::new(""));
    let mut config = Config {
        path: path.to_path_buf(),
        schema_cache: raw.schema_cache,
        ..Config::default()
    };
    for dir in raw.schema_dirs.unwrap_or_default() {
        if dir.get_ref().is_empty() {
            return Err(at(
                &shown,
                text,
                dir.span(),
                "`schema-dirs` holds an empty path",
            ));
        }
        config.schema_dirs.push(base.join(dir.get_ref()));
    }
    if let Some(check) = raw.check {
        config.policy = PolicyFlags {
            lenient: check.lenient.unwrap_or(false),
            allow_missing_variables: check.allow_missing_variables.unwrap_or(false),
            allow_missing_properties: check.allow_missing_properties.unwrap_or(false),
            skip_resource_typecheck: check.skip_resource_typecheck.unwrap_or(false),
            skip_invoke_typecheck: check.skip_invoke_typecheck.unwrap_or(false),
            skip_range_typecheck: check.skip_range_typecheck.unwrap_or(false),
            prefer_output_versioned_invokes: check.prefer_output_versioned_invokes.unwrap_or(false),
        };
        for value in check.deny.unwrap_or_default() {
            if value.get_ref() == "warnings" {
                config.deny_warnings = true;
            } else {
                check_code(&shown, text, &value, "[check] deny", known)?;
                config.codes.deny.push(value.into_inner());
            }
        }
    }
    if let Some(codes) = raw.codes {
        for (key, list, out) in [
            ("allow", codes.allow, &mut config.codes.allow),
            ("warn", codes.warn, &mut config.codes.warn),
            ("deny", codes.deny, &mut config.codes.deny),
        ] {
            for value in list.unwrap_or_default() {
                check_code(&shown, text, &value, &format!("[codes] {key}"), known)?;
                out.push(value.into_inner());
            }
        }
    }
    Ok(config)
}

/// A code named in a file must be a known one.
fn check_code(
    shown: &str,
    text: &str,
    value: &Spanned<String>,
    key: &str,
    known: Option<&[Code]>,
) -> Result<(), String> {
    let code = value.get_ref();
    let Some(known) = known else {
        return Ok(());
    };
    if known.iter().any(|c| c.as_str() == code) {
        return Ok(());
    }
    let escaped = code.escape_debug().to_string();
    let mut message = format!(
        "`{key}`: unknown diagnostic code `{}`",
        pcl_diagnostics::elide_quoted(&escaped)
    );
    let mut candidates: Vec<&str> = known.iter().map(|c| c.as_str()).collect();
    if key == "[check] deny" {
        candidates.push("warnings");
    }
    let suggestions = pcl_diagnostics::suggest::did_you_mean(code, candidates);
    if let Some(help) = pcl_diagnostics::suggest::help_line(&suggestions) {
        message.push_str("; ");
        message.push_str(&help);
    }
    Err(at(shown, text, value.span(), &message))
}

/// `file:line: message`.
fn at(shown: &str, text: &str, span: std::ops::Range<usize>, message: &str) -> String {
    format!("{shown}:{}: {message}", line_of(text, span.start))
}

/// The 1-based line of byte `offset`.
fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()
        .get(..end)
        .map_or(0, |b| memchr_count(b, b'\n'))
        + 1
}

fn memchr_count(bytes: &[u8], needle: u8) -> usize {
    bytes.iter().filter(|&&b| b == needle).count()
}

/// A `toml` error as one line: file, line, what, and a did-you-mean for an
/// unknown key.
fn toml_error(shown: &str, text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim();
    let line = e.span().map_or(1, |s| line_of(text, s.start));
    // serde's wording: "unknown field `x`, expected one of `a`, `b`" (or
    // "expected `a`"). The names between backticks are the key and then
    // the valid keys.
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let names: Vec<&str> = rest.split('`').skip(1).step_by(2).collect();
        if let Some((key, valid)) = names.split_first() {
            let escaped = key.escape_debug().to_string();
            let mut out = format!(
                "{shown}:{line}: unknown key `{}`",
                pcl_diagnostics::elide_quoted(&escaped)
            );
            let suggestions = pcl_diagnostics::suggest::did_you_mean(key, valid.iter().copied());
            if let Some(help) = pcl_diagnostics::suggest::help_line(&suggestions) {
                out.push_str("; ");
                out.push_str(&help);
            }
            if !valid.is_empty() {
                out.push_str(&format!(" (expected one of {})", valid.join(", ")));
            }
            return out;
        }
    }
    let first = message.lines().next().unwrap_or("invalid TOML");
    format!(
        "{shown}:{line}: {}",
        pcl_diagnostics::elide(&first.escape_debug().to_string(), 200)
    )
}

/// Finds each directory's `pcl.toml`, remembering every directory it has
/// looked at, so that finding the files of N programs under one tree costs
/// each directory one look.
///
/// A `pcl.toml` owned by another user than the current one or root is
/// passed over (git's `safe.directory` rule: anyone can plant one in a
/// shared directory such as `/tmp`); the search goes on above it, and
/// [`Discovery::take_foreign`] lists what was passed over. Any other entry
/// named `pcl.toml` (a FIFO, a device, a directory) is found, and
/// [`load`] refuses it with a clear error.
#[derive(Default)]
pub struct Discovery {
    found: HashMap<PathBuf, Option<PathBuf>>,
    foreign: Vec<(PathBuf, u32)>,
}

impl Discovery {
    /// The nearest `pcl.toml` at or above `dir` that the current user or
    /// root owns.
    pub fn find(&mut self, dir: &Path) -> Option<PathBuf> {
        let mut walked = Vec::new();
        let mut current = Some(dir);
        let mut result = None;
        while let Some(d) = current {
            if let Some(known) = self.found.get(d) {
                result = known.clone();
                break;
            }
            walked.push(d.to_path_buf());
            let candidate = d.join(FILE_NAME);
            // Links followed: a dangling link is no file.
            if candidate.metadata().is_ok() {
                match pcl_diagnostics::read::foreign_owner(&candidate) {
                    Some(uid) => self.foreign.push((candidate, uid)),
                    None => {
                        result = Some(candidate);
                        break;
                    }
                }
            }
            current = d.parent();
        }
        for d in walked {
            self.found.insert(d, result.clone());
        }
        result
    }

    /// The files passed over since the last call, each once, with their
    /// owner's uid.
    pub fn take_foreign(&mut self) -> Vec<(PathBuf, u32)> {
        std::mem::take(&mut self.foreign)
    }
}

/// The bind options of `[check]`, one field per `pcl check` flag of the
/// same name (an unset key is `false`).
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

impl PolicyFlags {
    /// The bind policy these flags ask for: `lenient` first, then each
    /// single option on top of it. The one place flags become a policy,
    /// for `pcl check` and `pcl lsp` alike.
    pub fn bind_policy(&self) -> pcl_binder::BindPolicy {
        let mut policy = if self.lenient {
            pcl_binder::BindPolicy::lenient()
        } else {
            pcl_binder::BindPolicy::strict()
        };
        policy.allow_missing_variables |= self.allow_missing_variables;
        policy.allow_missing_properties |= self.allow_missing_properties;
        policy.skip_resource_typecheck |= self.skip_resource_typecheck;
        policy.skip_invoke_typecheck |= self.skip_invoke_typecheck;
        policy.skip_range_typecheck |= self.skip_range_typecheck;
        policy.prefer_output_versioned_invokes |= self.prefer_output_versioned_invokes;
        policy
    }

    /// Each option set in `self` or in `other`.
    pub fn or(&self, other: &PolicyFlags) -> PolicyFlags {
        PolicyFlags {
            lenient: self.lenient || other.lenient,
            allow_missing_variables: self.allow_missing_variables || other.allow_missing_variables,
            allow_missing_properties: self.allow_missing_properties
                || other.allow_missing_properties,
            skip_resource_typecheck: self.skip_resource_typecheck || other.skip_resource_typecheck,
            skip_invoke_typecheck: self.skip_invoke_typecheck || other.skip_invoke_typecheck,
            skip_range_typecheck: self.skip_range_typecheck || other.skip_range_typecheck,
            prefer_output_versioned_invokes: self.prefer_output_versioned_invokes
                || other.prefer_output_versioned_invokes,
        }
    }
}

/// Codes named with a reporting level: `[codes]`, or the command line's
/// `--allow`/`--warn`/`--deny`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct CodeLevels {
    /// Not reported.
    pub allow: Vec<String>,
    /// Reported as warnings.
    pub warn: Vec<String>,
    /// Reported as errors.
    pub deny: Vec<String>,
}

/// How a named code is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Allow,
    Warn,
    Deny,
}

/// What each named code is reported as; a later source overrides an
/// earlier one. A diagnostic's level is one map lookup, however many codes
/// are named.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Levels(HashMap<String, Level>);

impl Levels {
    /// `sources` merged, later ones winning (a file, then the command line).
    pub fn merge(sources: &[&CodeLevels]) -> Levels {
        let mut levels: HashMap<String, Level> = HashMap::new();
        for source in sources {
            for (list, level) in [
                (&source.allow, Level::Allow),
                (&source.warn, Level::Warn),
                (&source.deny, Level::Deny),
            ] {
                for code in list {
                    levels.insert(code.clone(), level);
                }
            }
        }
        Levels(levels)
    }

    /// The level `code` is reported at, when one was chosen.
    pub fn level(&self, code: &str) -> Option<Level> {
        self.0.get(code).copied()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Drops the allowed codes' diagnostics and sets the severity of the
    /// warned and denied ones: one lookup per diagnostic.
    pub fn apply(&self, diagnostics: &mut Vec<Diagnostic>) {
        if self.0.is_empty() {
            return;
        }
        apply_levels(diagnostics, |code| self.level(code));
    }
}

/// Drops the diagnostics whose code `level` allows and sets the severity
/// of those it warns about or denies; shared by `pcl check` ([`Levels`])
/// and `pcl lsp` (its settings' code map).
pub fn apply_levels(diagnostics: &mut Vec<Diagnostic>, level: impl Fn(&str) -> Option<Level>) {
    diagnostics.retain_mut(|d| match level(d.code.as_str()) {
        Some(Level::Allow) => false,
        Some(Level::Warn) => {
            d.severity = Severity::Warning;
            true
        }
        Some(Level::Deny) => {
            d.severity = Severity::Error;
            true
        }
        None => true,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNOWN: &[Code] = &[
        Code("undefined-variable"),
        Code("unknown-property"),
        Code("cannot-iterate"),
    ];

    fn parse_at(text: &str) -> Result<Config, String> {
        parse(text, Path::new("proj/pcl.toml"), Some(KNOWN))
    }

    #[test]
    fn without_known_codes_names_are_taken_as_written() {
        let config = parse("[codes]\nallow = [\"made-up\"]\n", Path::new("p"), None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(config.codes.allow, ["made-up"]);
        assert!(parse_at("[codes]\nallow = [\"made-up\"]\n").is_err());
    }

    #[test]
    fn levels_later_sources_win_and_apply_sets_severity() {
        let file = CodeLevels {
            allow: vec!["a".into()],
            warn: vec!["b".into()],
            deny: vec![],
        };
        let cli = CodeLevels {
            deny: vec!["a".into()],
            ..CodeLevels::default()
        };
        let levels = Levels::merge(&[&file, &cli]);
        assert_eq!(levels.level("a"), Some(Level::Deny));
        assert_eq!(levels.level("b"), Some(Level::Warn));
        assert_eq!(levels.level("c"), None);
        let span = pcl_diagnostics::Span::new(
            pcl_diagnostics::FileId(0),
            pcl_diagnostics::TextRange::new(0, 1),
        );
        let mut diags = vec![
            Diagnostic::warning(Code("a"), span, "x"),
            Diagnostic::error(Code("b"), span, "y"),
            Diagnostic::error(Code("c"), span, "z"),
        ];
        Levels::merge(&[&file]).apply(&mut diags);
        let got: Vec<(&str, Severity)> = diags
            .iter()
            .map(|d| (d.code.as_str(), d.severity))
            .collect();
        assert_eq!(got, [("b", Severity::Warning), ("c", Severity::Error)]);
    }

    #[test]
    fn reads_every_key() {
        let text = r#"
schema-dirs = ["schemas", "../more"]
schema-cache = false
[check]
lenient = false
skip-range-typecheck = true
prefer-output-versioned-invokes = true
deny = ["warnings", "unknown-property"]
[codes]
allow = ["undefined-variable"]
warn = ["cannot-iterate"]
deny = []
"#;
        let config = parse_at(text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            config.schema_dirs,
            [
                Path::new("proj").join("schemas"),
                Path::new("proj").join("../more")
            ]
        );
        assert_eq!(config.schema_cache, Some(false));
        assert!(
            config.policy.skip_range_typecheck && config.policy.prefer_output_versioned_invokes
        );
        assert!(!config.policy.lenient);
        assert!(config.deny_warnings);
        assert_eq!(config.codes.deny, ["unknown-property"]);
        assert_eq!(config.codes.allow, ["undefined-variable"]);
        assert_eq!(config.codes.warn, ["cannot-iterate"]);
    }

    #[test]
    fn unknown_keys_name_file_line_and_suggest() {
        let err = parse_at("[check]\n\nlenent = true\n")
            .err()
            .unwrap_or_default();
        assert!(
            err.starts_with("proj/pcl.toml:3: unknown key `lenent`"),
            "{err}"
        );
        assert!(err.contains("did you mean `lenient`?"), "{err}");
        let err = parse_at("schema-dir = []\n").err().unwrap_or_default();
        assert!(err.contains(":1: unknown key `schema-dir`"), "{err}");
        assert!(err.contains("did you mean `schema-dirs`?"), "{err}");
    }

    #[test]
    fn bad_values_name_file_and_line() {
        let err = parse_at("schema-cache = \"yes\"\n")
            .err()
            .unwrap_or_default();
        assert!(err.starts_with("proj/pcl.toml:1: "), "{err}");
        let err = parse_at("[codes]\nallow = [\n  \"undefined-variabel\",\n]\n")
            .err()
            .unwrap_or_default();
        assert!(err.starts_with("proj/pcl.toml:3: `[codes] allow`"), "{err}");
        assert!(err.contains("did you mean `undefined-variable`?"), "{err}");
        let err = parse_at("[check]\ndeny = [\"warning\"]\n")
            .err()
            .unwrap_or_default();
        assert!(err.starts_with("proj/pcl.toml:2:"), "{err}");
        assert!(err.contains("did you mean `warnings`?"), "{err}");
        assert!(parse_at("not toml at all").is_err());
    }

    /// The `toml` parser has its own nesting limit: a file nested 100 000
    /// levels deep is an error, not a stack overflow.
    #[test]
    fn deep_nesting_is_an_error() {
        for (open, close) in [("[", "]"), ("{x=", "}")] {
            let text = format!("a = {}{}\n", open.repeat(100_000), close.repeat(100_000));
            // On a 2 MiB stack, less than a main thread gets.
            let err = std::thread::Builder::new()
                .stack_size(2 * 1024 * 1024)
                .spawn(move || parse_at(&text))
                .map(|h| h.join())
                .unwrap_or_else(|e| panic!("{e}"))
                .unwrap_or_else(|_| panic!("parsing panicked"))
                .err()
                .unwrap_or_default();
            assert!(err.starts_with("proj/pcl.toml:1: "), "{err}");
        }
    }

    /// A `pcl.toml` that is a FIFO is found (not passed over for the one
    /// above it) and refused without being opened for reading: no hang.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_found_and_refused() {
        let root = std::env::temp_dir().join(format!("pcl-config-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = root.join("p");
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(root.join(FILE_NAME), "").unwrap_or_else(|e| panic!("{e}"));
        let made = std::process::Command::new("mkfifo")
            .arg(dir.join(FILE_NAME))
            .status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped: mkfifo is not available");
            return;
        }
        let mut discovery = Discovery::default();
        let found = discovery.find(&dir);
        assert_eq!(found, Some(dir.join(FILE_NAME)));
        assert!(discovery.take_foreign().is_empty());
        let err = load(&dir.join(FILE_NAME), None).err().unwrap_or_default();
        assert!(err.ends_with("pcl.toml`: not a regular file"), "{err}");
        let err = load(Path::new("/dev/zero"), None).err().unwrap_or_default();
        assert_eq!(err, "cannot read `/dev/zero`: not a regular file");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn discovery_walks_up_once_per_directory() {
        let root = std::env::temp_dir().join(format!("pcl-config-{}", std::process::id()));
        let deep = root.join("a/b/c");
        std::fs::create_dir_all(&deep).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(root.join("a").join(FILE_NAME), "").unwrap_or_else(|e| panic!("{e}"));
        let mut discovery = Discovery::default();
        assert_eq!(discovery.find(&deep), Some(root.join("a").join(FILE_NAME)));
        assert_eq!(
            discovery.find(&root.join("a/b")),
            Some(root.join("a").join(FILE_NAME))
        );
        assert!(discovery.found.contains_key(&root.join("a/b/c")));
        let _ = std::fs::remove_dir_all(&root);
    }
}
