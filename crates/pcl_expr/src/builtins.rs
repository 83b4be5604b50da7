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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_usage_names_its_function() {
        for b in Builtin::ALL {
            let u = b.usage();
            assert!(u.starts_with(&format!("{}(", b.name())), "{u}");
            assert!(u.ends_with(')'), "{u}");
        }
    }
}
