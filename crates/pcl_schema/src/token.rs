//! Type tokens: splitting them and computing the canonical form PCL binds.
//!
//! A token is `pkg:module:member` (or `pkg:member`, module `index`). PCL
//! indexes every schema token under `<package name>:<M>:<member>`, where `M`
//! is the first capture group of the package's `meta.moduleFormat` regex
//! (default `(.*)`) matched against the module part, or empty when the regex
//! does not match or yields `index`; `pulumi:pulumi:*` and
//! `pulumi:providers:*` always get an empty `M` (binder.md §5.6.1). So with
//! the format `(.*)(?:/[^/]*)`, `aws:s3/bucket:Bucket` is `aws:s3:Bucket`
//! and `random:index/randomPet:RandomPet` is `random::RandomPet`.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

use regex::Regex;

/// The default module format.
pub const DEFAULT_MODULE_FORMAT: &str = "(.*)";

/// The module format of most bridged providers (`aws:s3/bucket:Bucket` is
/// in module `s3`): matched without running the regex (see
/// [`ModuleFormat::module`]).
const SLASH_MODULE_FORMAT: &str = "(.*)(?:/[^/]*)";

/// A token split into its parts (an empty or missing module reads `index`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub package: &'a str,
    pub module: &'a str,
    pub member: &'a str,
}

/// A token that is not `pkg:module:member` or `pkg:member`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedToken(pub String);

impl fmt::Display for MalformedToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "malformed token `{}`: expected `pkg:module:member` or `pkg:member`",
            self.0
        )
    }
}

impl std::error::Error for MalformedToken {}

/// Splits a token as PCL does: two parts mean module `index`, an empty
/// module is `index`, any other empty part or part count is malformed.
pub fn decompose(token: &str) -> Result<Token<'_>, MalformedToken> {
    let malformed = || MalformedToken(token.to_owned());
    let mut parts = token.split(':');
    let (package, module, member) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(p), Some(m), None, None) => (p, "index", m),
        (Some(p), Some(m), Some(n), None) => (p, if m.is_empty() { "index" } else { m }, n),
        _ => return Err(malformed()),
    };
    if package.is_empty() || member.is_empty() {
        return Err(malformed());
    }
    Ok(Token {
        package,
        module,
        member,
    })
}

/// A compiled `meta.moduleFormat`.
#[derive(Clone, Debug)]
pub struct ModuleFormat {
    source: String,
    regex: Option<Regex>,
}

impl ModuleFormat {
    /// Compiles a module format; an invalid one behaves like the default
    /// and the compile error is returned alongside for reporting.
    pub fn new(source: Option<&str>) -> (ModuleFormat, Option<String>) {
        let source = source
            .filter(|s| !s.is_empty())
            .unwrap_or(DEFAULT_MODULE_FORMAT);
        if source == DEFAULT_MODULE_FORMAT {
            return (
                ModuleFormat {
                    source: source.to_owned(),
                    regex: None,
                },
                None,
            );
        }
        match compile(source) {
            Ok(regex) => (
                ModuleFormat {
                    source: source.to_owned(),
                    regex: Some(regex),
                },
                None,
            ),
            Err(err) => (
                ModuleFormat {
                    source: DEFAULT_MODULE_FORMAT.to_owned(),
                    regex: None,
                },
                Some(format!("failed to compile module format {source:?}: {err}")),
            ),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The canonical module of a module part: the first capture group of
    /// the leftmost match, or "" when there is none or it is `index`.
    pub fn module<'a>(&self, module: &'a str) -> &'a str {
        let group = match &self.regex {
            // `(.*)` captures the whole module.
            None => module,
            // `(.*)(?:/[^/]*)` captures up to the last `/` (there is no
            // match without one); `.` does not match a line break, so a
            // module with one is left to the regex.
            Some(_) if self.source == SLASH_MODULE_FORMAT && !module.contains('\n') => module
                .rfind('/')
                .and_then(|i| module.get(..i))
                .unwrap_or(""),
            Some(regex) => regex
                .captures(module)
                .and_then(|c| c.get(1))
                .map_or("", |m| m.as_str()),
        };
        if group == "index" {
            ""
        } else {
            group
        }
    }

    /// The canonical module of a full token (`""` for tokens without three
    /// parts and for the `pulumi:pulumi` / `pulumi:providers` modules).
    pub fn token_module<'a>(&self, token: &'a str) -> &'a str {
        let mut parts = token.split(':');
        match (parts.next(), parts.next(), parts.next(), parts.next()) {
            (Some("pulumi"), Some("pulumi" | "providers"), Some(_), None) => "",
            (Some(_), Some(module), Some(_), None) => self.module(module),
            _ => "",
        }
    }

    /// The canonical key `<package>:<M>:<member>` of a schema token.
    pub fn canonical(&self, package_name: &str, token: &str) -> String {
        let member = decompose(token)
            .map_or_else(|_| token.rsplit(':').next().unwrap_or(token), |t| t.member);
        format!("{package_name}:{}:{member}", self.token_module(token))
    }
}

/// Compiles a module format, once per process: every load of a package
/// (and of each of its versions) uses the same few formats, and compiling
/// costs far more than reading a small schema.
fn compile(source: &str) -> Result<Regex, regex::Error> {
    static CACHE: OnceLock<Mutex<HashMap<String, Regex>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(regex) = cache.lock().ok().and_then(|c| c.get(source).cloned()) {
        return Ok(regex);
    }
    let regex = Regex::new(source)?;
    if let Ok(mut c) = cache.lock() {
        // A bound on what a process that loads many generated schemas keeps.
        if c.len() >= MAX_CACHED_FORMATS {
            c.clear();
        }
        c.insert(source.to_owned(), regex.clone());
    }
    Ok(regex)
}

/// How many compiled module formats [`compile`] keeps.
const MAX_CACHED_FORMATS: usize = 64;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decompose_rules() {
        let t = decompose("foo:Bar").unwrap();
        assert_eq!((t.package, t.module, t.member), ("foo", "index", "Bar"));
        let t = decompose("foo::Bar").unwrap();
        assert_eq!(t.module, "index");
        let t = decompose("aws:s3/bucket:Bucket").unwrap();
        assert_eq!(t.module, "s3/bucket");
        for bad in ["foo", "a:b:c:d", ":m:x", "a:m:", "", "a:"] {
            assert!(decompose(bad).is_err(), "{bad}");
        }
        assert_eq!(
            decompose("x").unwrap_err().to_string(),
            "malformed token `x`: expected `pkg:module:member` or `pkg:member`"
        );
    }

    #[test]
    fn canonical_forms() {
        let (plain, _) = ModuleFormat::new(None);
        assert_eq!(plain.canonical("foo", "foo:index:Foo"), "foo::Foo");
        assert_eq!(plain.canonical("foo", "foo:mod/sub:Foo"), "foo:mod/sub:Foo");
        let (slash, _) = ModuleFormat::new(Some("(.*)(?:/[^/]*)"));
        assert_eq!(
            slash.canonical("random", "random:index/randomPet:RandomPet"),
            "random::RandomPet"
        );
        assert_eq!(
            slash.canonical("random", "random:index:RandomPet"),
            "random::RandomPet"
        );
        assert_eq!(
            slash.canonical("aws", "aws:s3/bucket:Bucket"),
            "aws:s3:Bucket"
        );
        assert_eq!(slash.canonical("aws", "aws:s3:Bucket"), "aws::Bucket");
        assert_eq!(
            slash.canonical("pulumi", "pulumi:pulumi:StackReference"),
            "pulumi::StackReference"
        );
        assert_eq!(plain.canonical("p", "pulumi:providers:p"), "p::p");
        let (under, _) = ModuleFormat::new(Some("(.*)(?:_[^_]*)"));
        assert_eq!(
            under.canonical("m", "m:index_Resource:Resource"),
            "m::Resource"
        );
        assert_eq!(
            under.canonical("m", "m:mod/nested_Resource:Resource"),
            "m:mod/nested:Resource"
        );
    }

    /// The shortcut for `(.*)(?:/[^/]*)` answers what the regex answers.
    #[test]
    fn slash_format_shortcut_agrees_with_the_regex() {
        let (slash, _) = ModuleFormat::new(Some(SLASH_MODULE_FORMAT));
        let regex = Regex::new(SLASH_MODULE_FORMAT).unwrap();
        for module in [
            "",
            "index",
            "s3",
            "s3/bucket",
            "index/randomPet",
            "/",
            "//",
            "a/",
            "/a",
            "a/b/c",
            "a//b",
            "ä/ö",
            "a\nb/c",
            "a/b\nc",
            "\n/x",
            "x/\n",
        ] {
            let by_regex = regex
                .captures(module)
                .and_then(|c| c.get(1))
                .map_or("", |m| m.as_str());
            let by_regex = if by_regex == "index" { "" } else { by_regex };
            assert_eq!(slash.module(module), by_regex, "{module:?}");
        }
    }

    #[test]
    fn bad_format_falls_back_with_error() {
        let (f, err) = ModuleFormat::new(Some("(unclosed"));
        assert!(err.is_some());
        assert_eq!(f.as_str(), DEFAULT_MODULE_FORMAT);
        assert_eq!(f.module("a/b"), "a/b");
    }
}
