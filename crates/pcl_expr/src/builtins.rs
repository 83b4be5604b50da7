//! The builtin functions of the root scope (binder.md §4.1) and their
//! argument-dependent signatures.
//!
//! Not defined (binder.md §4.2, removed at HEAD): `mimeType(path: string)
//! -> string` and `readDir(path: string) -> list(string)`; calling them
//! reports `unknown function`. Also not callable from source (§4.4):
//! `__apply`, `__convert`.

/// A builtin function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    Element,
    Entries,
    FileArchive,
    RemoteArchive,
    AssetArchive,
    FileAsset,
    StringAsset,
    RemoteAsset,
    Join,
    Length,
    Lookup,
    Range,
    ReadFile,
    Filebase64,
    Filebase64sha256,
    Sha1,
    ToBase64,
    FromBase64,
    Split,
    Secret,
    Unsecret,
    ToJson,
    Stack,
    Project,
    Organization,
    Cwd,
    RootDirectory,
    NotImplemented,
    SingleOrNone,
    GetOutput,
    Try,
    Can,
    Recover,
    Max,
    Min,
    PulumiResourceType,
    PulumiResourceName,
}

impl Builtin {
    /// Every builtin, in the order of binder.md §4.1.
    pub const ALL: &'static [Builtin] = &[
        Builtin::Element,
        Builtin::Entries,
        Builtin::FileArchive,
        Builtin::RemoteArchive,
        Builtin::AssetArchive,
        Builtin::FileAsset,
        Builtin::StringAsset,
        Builtin::RemoteAsset,
        Builtin::Join,
        Builtin::Length,
        Builtin::Lookup,
        Builtin::Range,
        Builtin::ReadFile,
        Builtin::Filebase64,
        Builtin::Filebase64sha256,
        Builtin::Sha1,
        Builtin::ToBase64,
        Builtin::FromBase64,
        Builtin::Split,
        Builtin::Secret,
        Builtin::Unsecret,
        Builtin::ToJson,
        Builtin::Stack,
        Builtin::Project,
        Builtin::Organization,
        Builtin::Cwd,
        Builtin::RootDirectory,
        Builtin::NotImplemented,
        Builtin::SingleOrNone,
        Builtin::GetOutput,
        Builtin::Try,
        Builtin::Can,
        Builtin::Recover,
        Builtin::Max,
        Builtin::Min,
        Builtin::PulumiResourceType,
        Builtin::PulumiResourceName,
    ];

    /// The name the function is called by.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Element => "element",
            Builtin::Entries => "entries",
            Builtin::FileArchive => "fileArchive",
            Builtin::RemoteArchive => "remoteArchive",
            Builtin::AssetArchive => "assetArchive",
            Builtin::FileAsset => "fileAsset",
            Builtin::StringAsset => "stringAsset",
            Builtin::RemoteAsset => "remoteAsset",
            Builtin::Join => "join",
            Builtin::Length => "length",
            Builtin::Lookup => "lookup",
            Builtin::Range => "range",
            Builtin::ReadFile => "readFile",
            Builtin::Filebase64 => "filebase64",
            Builtin::Filebase64sha256 => "filebase64sha256",
            Builtin::Sha1 => "sha1",
            Builtin::ToBase64 => "toBase64",
            Builtin::FromBase64 => "fromBase64",
            Builtin::Split => "split",
            Builtin::Secret => "secret",
            Builtin::Unsecret => "unsecret",
            Builtin::ToJson => "toJSON",
            Builtin::Stack => "stack",
            Builtin::Project => "project",
            Builtin::Organization => "organization",
            Builtin::Cwd => "cwd",
            Builtin::RootDirectory => "rootDirectory",
            Builtin::NotImplemented => "notImplemented",
            Builtin::SingleOrNone => "singleOrNone",
            Builtin::GetOutput => "getOutput",
            Builtin::Try => "try",
            Builtin::Can => "can",
            Builtin::Recover => "recover",
            Builtin::Max => "max",
            Builtin::Min => "min",
            Builtin::PulumiResourceType => "pulumiResourceType",
            Builtin::PulumiResourceName => "pulumiResourceName",
        }
    }

    /// The builtin called `name`, if any.
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.iter().copied().find(|b| b.name() == name)
    }

    /// How the function is called, as a diagnostic shows it when the
    /// arguments do not fit (`join(separator: string, strings:
    /// list(string))`). Arguments whose type depends on the call are
    /// spelled by what they accept; `?` marks an optional parameter.
    pub fn usage(self) -> &'static str {
        match self {
            Builtin::Element => "element(list: list or tuple, index: int)",
            Builtin::Entries => "entries(collection: list, map or object)",
            Builtin::FileArchive => "fileArchive(path: string)",
            Builtin::RemoteArchive => "remoteArchive(uri: string)",
            Builtin::AssetArchive => "assetArchive(assets: map(Asset | Archive))",
            Builtin::FileAsset => "fileAsset(path: string)",
            Builtin::StringAsset => "stringAsset(value: string)",
            Builtin::RemoteAsset => "remoteAsset(uri: string)",
            Builtin::Join => "join(separator: string, strings: list(string))",
            Builtin::Length => "length(value: list, map, object, tuple or string)",
            Builtin::Lookup => "lookup(map: map or object, key: string, default?: element type)",
            Builtin::Range => "range(fromOrTo: int, to?: int)",
            Builtin::ReadFile => "readFile(path: string)",
            Builtin::Filebase64 => "filebase64(path: string)",
            Builtin::Filebase64sha256 => "filebase64sha256(path: string)",
            Builtin::Sha1 => "sha1(input: string)",
            Builtin::ToBase64 => "toBase64(value: string)",
            Builtin::FromBase64 => "fromBase64(value: string)",
            Builtin::Split => "split(separator: string, string: string)",
            Builtin::Secret => "secret(value: any)",
            Builtin::Unsecret => "unsecret(value: any)",
            Builtin::ToJson => "toJSON(value: any)",
            Builtin::Stack => "stack()",
            Builtin::Project => "project()",
            Builtin::Organization => "organization()",
            Builtin::Cwd => "cwd()",
            Builtin::RootDirectory => "rootDirectory()",
            Builtin::NotImplemented => "notImplemented(errorMessage: string)",
            Builtin::SingleOrNone => "singleOrNone(value: list or tuple)",
            Builtin::GetOutput => "getOutput(stackReference: StackReference, outputName: string)",
            Builtin::Try => "try(value: any, ...fallbacks: any)",
            Builtin::Can => "can(value: any)",
            Builtin::Recover => "recover(value: output, recovery: any)",
            Builtin::Max => "max(first: number, ...rest: number)",
            Builtin::Min => "min(first: number, ...rest: number)",
            Builtin::PulumiResourceType => "pulumiResourceType(resource: a resource)",
            Builtin::PulumiResourceName => "pulumiResourceName(resource: a resource)",
        }
    }

    /// What the function does, in one line (`docs/builtins.md`).
    pub fn summary(self) -> &'static str {
        match self {
            Builtin::Element => "The element of a list or tuple at an index.",
            Builtin::Entries => "The entries of a collection as a list of `{ key, value }` objects: indices and elements of a list, keys and values of a map or object.",
            Builtin::FileArchive => "An archive read from a file or directory at a path.",
            Builtin::RemoteArchive => "An archive fetched from a URI.",
            Builtin::AssetArchive => "An archive made of the named assets and archives of a map.",
            Builtin::FileAsset => "An asset read from the file at a path.",
            Builtin::StringAsset => "An asset whose contents are a string.",
            Builtin::RemoteAsset => "An asset fetched from a URI.",
            Builtin::Join => "The strings of a list joined with a separator between them.",
            Builtin::Length => "The number of elements of a list, map, object or tuple, or of characters of a string.",
            Builtin::Lookup => "The value of a key in a map or object, or the default when the key is absent.",
            Builtin::Range => "The integers from 0 (or `fromOrTo`) up to, not including, `fromOrTo` (or `to`).",
            Builtin::ReadFile => "The contents of a file, as a string.",
            Builtin::Filebase64 => "The contents of a file, base64-encoded.",
            Builtin::Filebase64sha256 => "The base64-encoded SHA-256 hash of a file's contents.",
            Builtin::Sha1 => "The hexadecimal SHA-1 hash of a string.",
            Builtin::ToBase64 => "A string, base64-encoded.",
            Builtin::FromBase64 => "A base64-encoded string, decoded.",
            Builtin::Split => "A string split into a list at each occurrence of a separator.",
            Builtin::Secret => "The value, marked secret (an output).",
            Builtin::Unsecret => "The value of a secret, no longer marked secret (an output).",
            Builtin::ToJson => "The value encoded as JSON text.",
            Builtin::Stack => "The name of the stack being deployed.",
            Builtin::Project => "The name of the project being deployed.",
            Builtin::Organization => "The name of the organization of the stack being deployed.",
            Builtin::Cwd => "The working directory of the deployment.",
            Builtin::RootDirectory => "The directory of the project (where `Pulumi.yaml` is).",
            Builtin::NotImplemented => "A placeholder for what a conversion could not translate; fails with the message when evaluated.",
            Builtin::SingleOrNone => "The one element of a list, or none when it is empty (more than one is an error when evaluated).",
            Builtin::GetOutput => "An output of another stack, by name, from a `pulumi:pulumi:StackReference` resource.",
            Builtin::Try => "The first of its arguments that evaluates without an error.",
            Builtin::Can => "Whether its argument evaluates without an error.",
            Builtin::Recover => "The output's value, or the recovery value when the output fails (`error` names the failure there).",
            Builtin::Max => "The largest of its numbers.",
            Builtin::Min => "The smallest of its numbers.",
            Builtin::PulumiResourceType => "The type token of a resource (`aws:s3/bucket:Bucket`).",
            Builtin::PulumiResourceName => "The logical name of a resource.",
        }
    }
}

/// The functions of the root scope that are not [`Builtin`]s (their
/// signatures come from a package schema): usage and summary.
pub const SCHEMA_FUNCTIONS: &[(&str, &str)] = &[
    (
        "invoke(token: string, args?: object, invokeOptions?: object)",
        "Calls the provider function `token` of a package schema with its arguments; the result has the function's output type.",
    ),
    (
        "call(self: a resource, method: string, args: object)",
        "Calls a method of a resource (a method of its schema) with its arguments.",
    ),
];

/// Where the builtin functions are documented (`unknown-function` points
/// there).
pub const BUILTINS_DOC: &str = "docs/builtins.md";

/// `docs/builtins.md`: every function of the root scope with its
/// signature and what it does, generated from [`Builtin`] and
/// [`SCHEMA_FUNCTIONS`].
pub fn reference_markdown() -> String {
    let mut out = String::from(
        "# Builtin functions\n\n\
         <!-- Generated from crates/pcl_expr/src/builtins.rs by \
         `UPDATE_EXPECT=1 cargo test -p pcl_expr --lib builtins`; do not edit. -->\n\n\
         The functions a PCL program can call, with the signature `pcl check` \
         checks calls against (the same text its diagnostics show after \
         `usage:`). An argument whose type depends on the call is spelled by \
         what it accepts; `?` marks an optional parameter, `...` any number of \
         arguments. Calling any other name is an `unknown-function` error.\n\n\
         | function | what it does |\n|---|---|\n",
    );
    let rows = Builtin::ALL
        .iter()
        .map(|b| (b.usage(), b.summary()))
        .chain(SCHEMA_FUNCTIONS.iter().copied());
    for (usage, summary) in rows {
        out.push_str(&row(usage, summary));
    }
    out
}

/// One table row (a `|` in a cell is escaped, as tables need).
fn row(usage: &str, summary: &str) -> String {
    let cell = |s: &str| s.replace('|', "\\|");
    format!("| `{}` | {} |\n", cell(usage), cell(summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `docs/builtins.md` is generated from this table; `UPDATE_EXPECT=1`
    /// rewrites it.
    #[test]
    fn docs_builtins_md_is_current() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(BUILTINS_DOC);
        let expected = reference_markdown();
        if pcl_testkit::updating() {
            std::fs::write(&path, &expected).unwrap_or_else(|e| panic!("{e}"));
            return;
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            actual == expected,
            "{BUILTINS_DOC} is stale: run `UPDATE_EXPECT=1 cargo test -p pcl_expr --lib builtins`"
        );
        // Every builtin is listed, with its usage and summary.
        for b in Builtin::ALL {
            assert!(
                actual.contains(&row(b.usage(), b.summary())),
                "{}",
                b.name()
            );
        }
    }

    #[test]
    fn every_usage_names_its_function() {
        for b in Builtin::ALL {
            let u = b.usage();
            assert!(u.starts_with(&format!("{}(", b.name())), "{u}");
            assert!(u.ends_with(')'), "{u}");
        }
    }
}
