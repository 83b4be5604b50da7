//! Typed errors of schema loading, decoding, lookup and reference
//! resolution, and the diagnostic codes the binder reports them under.
//!
//! [`LoadError`] is per package: the binder reports it once per package
//! (binder.md §6.1; robustness goal 34). [`DecodeError`] is per member: one
//! resource, function or type whose JSON does not decode; the rest of the
//! package stays usable.

use std::fmt;
use std::path::PathBuf;

use pcl_diagnostics::Code;

/// A package schema that could not be found.
pub const SCHEMA_NOT_FOUND: Code = Code("schema-not-found");
/// A package schema that is not valid JSON or not a package schema.
pub const SCHEMA_MALFORMED: Code = Code("schema-malformed");
/// A package schema file that could not be read.
pub const SCHEMA_IO: Code = Code("schema-io");
/// One member of a schema (resource, function, type) that does not decode.
pub const SCHEMA_MEMBER_INVALID: Code = Code("schema-member-invalid");

/// Every code above, for documentation and the code catalogue's tests.
pub const ALL: &[Code] = &[
    SCHEMA_NOT_FOUND,
    SCHEMA_MALFORMED,
    SCHEMA_IO,
    SCHEMA_MEMBER_INVALID,
];

/// Why a package could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// No schema for the package (at that version).
    NotFound {
        name: String,
        version: Option<semver::Version>,
        /// Versions that do exist, ascending.
        available: Vec<semver::Version>,
        /// Where the loader looked.
        searched: Vec<PathBuf>,
    },
    /// The text is not valid JSON (structurally) or not UTF-8.
    Malformed {
        name: String,
        path: Option<PathBuf>,
        line: usize,
        column: usize,
        message: String,
    },
    /// Valid JSON that is not a usable package schema (no name, bad
    /// version, name or parameterization does not match the request …).
    Invalid {
        name: String,
        path: Option<PathBuf>,
        message: String,
    },
    /// The file could not be read.
    Io {
        name: String,
        path: PathBuf,
        message: String,
    },
}

impl LoadError {
    /// The requested package name.
    pub fn package(&self) -> &str {
        match self {
            LoadError::NotFound { name, .. }
            | LoadError::Malformed { name, .. }
            | LoadError::Invalid { name, .. }
            | LoadError::Io { name, .. } => name,
        }
    }

    pub fn code(&self) -> Code {
        match self {
            LoadError::NotFound { .. } => SCHEMA_NOT_FOUND,
            LoadError::Malformed { .. } | LoadError::Invalid { .. } => SCHEMA_MALFORMED,
            LoadError::Io { .. } => SCHEMA_IO,
        }
    }

    /// A remedy line for the user.
    pub fn help(&self) -> Option<String> {
        match self {
            LoadError::NotFound { name, version, .. } => {
                let (at, file) = match version {
                    Some(v) => (format!("@{v}"), format!("{name}-{v}.json")),
                    None => (String::new(), format!("{name}.json")),
                };
                Some(format!(
                    "get the schema with `pulumi package get-schema {name}{at} > DIR/{file}` \
                     and pass `--schema-dir DIR`"
                ))
            }
            _ => None,
        }
    }
}

fn path_suffix(path: &Option<PathBuf>) -> String {
    path.as_ref()
        .map(|p| format!(" ({})", p.display()))
        .unwrap_or_default()
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotFound {
                name,
                version,
                available,
                ..
            } => {
                match version {
                    Some(v) => write!(f, "no schema for package `{name}` version {v}")?,
                    None => write!(f, "no schema for package `{name}`")?,
                }
                if !available.is_empty() {
                    let list: Vec<String> = available.iter().map(ToString::to_string).collect();
                    write!(f, "; available versions: {}", list.join(", "))?;
                }
                Ok(())
            }
            LoadError::Malformed {
                name,
                path,
                line,
                column,
                message,
            } => write!(
                f,
                "malformed schema for package `{name}`{} at line {line}, column {column}: {message}",
                path_suffix(path)
            ),
            LoadError::Invalid {
                name,
                path,
                message,
            } => write!(f, "invalid schema for package `{name}`{}: {message}", path_suffix(path)),
            LoadError::Io {
                name,
                path,
                message,
            } => write!(f, "cannot read schema for package `{name}` ({}): {message}", path.display()),
        }
    }
}

impl std::error::Error for LoadError {}

/// Which part of a schema a member lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    Resource,
    Provider,
    Function,
    Type,
    Config,
    Package,
}

impl Section {
    pub fn as_str(self) -> &'static str {
        match self {
            Section::Resource => "resource",
            Section::Provider => "provider",
            Section::Function => "function",
            Section::Type => "type",
            Section::Config => "config",
            Section::Package => "package",
        }
    }
}

/// One member that does not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub package: String,
    pub section: Section,
    pub token: String,
    /// Position in the schema text (1-based), when known.
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid {} `{}` in package `{}` at line {}, column {}: {}",
            self.section.as_str(),
            self.token,
            self.package,
            self.line,
            self.column,
            self.message
        )
    }
}

impl std::error::Error for DecodeError {}

/// A token lookup that found something unusable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LookupError {
    /// The member exists but does not decode.
    Decode(DecodeError),
    /// The member decodes but the schema gets something wrong in it or in
    /// a type it names (see [`crate::Package::lookup_resource`]): the
    /// problems, in the order found.
    Invalid {
        token: String,
        problems: Vec<crate::model::SchemaProblem>,
    },
    /// The token's canonical form names several schema tokens (possible
    /// with module formats that drop a path segment); the reference picks
    /// one arbitrarily, we refuse.
    Ambiguous {
        token: String,
        candidates: Vec<String>,
    },
}

impl fmt::Display for LookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LookupError::Decode(e) => e.fmt(f),
            // As the reference prints the diagnostics of a member that
            // does not bind: the first, and how many others.
            LookupError::Invalid { token, problems } => match problems.split_first() {
                None => write!(f, "invalid schema member `{token}`"),
                Some((first, [])) => write!(f, "{}: {}", first.path, first.message),
                Some((first, rest)) => write!(
                    f,
                    "{}: {}, and {} other diagnostic(s)",
                    first.path,
                    first.message,
                    rest.len()
                ),
            },
            LookupError::Ambiguous { token, candidates } => write!(
                f,
                "token `{token}` is ambiguous: it matches {}",
                candidates.join(", ")
            ),
        }
    }
}

impl std::error::Error for LookupError {}

impl From<DecodeError> for LookupError {
    fn from(e: DecodeError) -> Self {
        LookupError::Decode(e)
    }
}

/// A `$ref` that does not resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// The referenced package could not be loaded.
    Load(LoadError),
    /// The referenced member does not decode.
    Lookup(LookupError),
    /// The package has no such type/resource.
    NotFound { reference: String, package: String },
    /// An opaque token type whose `type` is not a primitive.
    BadUnderlyingType {
        reference: String,
        type_name: String,
    },
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Load(e) => e.fmt(f),
            ResolveError::Lookup(e) => e.fmt(f),
            ResolveError::NotFound { reference, package } => {
                write!(f, "`{reference}` not found in package `{package}`")
            }
            ResolveError::BadUnderlyingType {
                reference,
                type_name,
            } => write!(f, "`{reference}`: unknown primitive type {type_name}"),
        }
    }
}

impl std::error::Error for ResolveError {}

impl From<LookupError> for ResolveError {
    fn from(e: LookupError) -> Self {
        ResolveError::Lookup(e)
    }
}

impl From<DecodeError> for ResolveError {
    fn from(e: DecodeError) -> Self {
        ResolveError::Lookup(LookupError::Decode(e))
    }
}

impl From<LoadError> for ResolveError {
    fn from(e: LoadError) -> Self {
        ResolveError::Load(e)
    }
}
