//! A loaded package: package-level facts decoded eagerly, every resource,
//! function and type decoded on first use.
//!
//! [`Package::parse`] locates the members by layout ([`crate::layout`]),
//! or with the full serde scan ([`crate::skim`]), and decodes only
//! the small top-level members (name, version, meta, parameterization …).
//! Each entry of `resources`, `functions` and `types`, plus `provider` and
//! `config`, keeps its byte range in the shared text and a `OnceLock` that
//! holds the decoded value (or its [`DecodeError`]) after the first lookup.
//! Before a section is split, an exact token is looked up by
//! [`layout::Prober`] (a binary search in a sorted section, narrowed by
//! the key lines earlier probes read); the split, when
//! something needs it, keeps what the probes decoded.
//! A `Package` is `Send + Sync`; concurrent lookups of one entry decode it
//! once.
//!
//! Token lookups follow binder.md §5.6.1: the written token is first looked
//! up among the canonical keys, then canonicalised and looked up again. A
//! schema token that is its own canonical key is found directly; otherwise
//! only the tokens with the written token's member name are canonicalised
//! (an index by member name is built on the first lookup that needs it).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};

use indexmap::IndexMap;
use serde::de::DeserializeOwned;

use crate::decode;
use crate::error::{DecodeError, LoadError, LookupError, ResolveError, Section};
use crate::layout;
use crate::loader::{PackageDescriptor, SchemaLoader};
use crate::model::{
    method_parts, Config, Dependency, Function, ObjectType, Primitive, RefKind, Resource,
    SchemaParameterization, SchemaProblem, TypeDef, TypeRef,
};
use crate::skim::{self, Document, Members, SkimError};
use crate::spec::{
    RawComplexType, RawConfig, RawDependency, RawFunction, RawMeta, RawParameterization,
    RawResource,
};
use crate::token::{decompose, ModuleFormat};

/// One lazily decoded member.
#[derive(Debug)]
struct Entry<T> {
    range: Option<Range<usize>>,
    cell: OnceLock<Result<Arc<T>, DecodeError>>,
}

impl<T> Entry<T> {
    fn new(range: Option<Range<usize>>) -> Self {
        Entry {
            range,
            cell: OnceLock::new(),
        }
    }
}

/// A section's entries and, once a lookup needs it, their index by member
/// name.
#[derive(Debug)]
struct Entries<T> {
    map: IndexMap<String, Entry<T>>,
    index: OnceLock<MemberIndex>,
}

impl<T> Entries<T> {
    fn new(members: Members) -> Self {
        Entries {
            map: entries(members),
            index: OnceLock::new(),
        }
    }

    fn decoded(&self) -> usize {
        self.map.values().filter(|e| e.cell.get().is_some()).count()
    }
}

/// A section's entries: built at load by the full skim, or on first use
/// from the section's value range by the layout skim. `full` holds the
/// full skim's entries when they turn out to differ from the layout's
/// (see [`Package::section`]).
#[derive(Debug)]
struct Lazy<T> {
    range: Option<Range<usize>>,
    layout: OnceLock<Entries<T>>,
    full: OnceLock<Entries<T>>,
    /// Entries found by [`layout::Prober`] before the section was split;
    /// the split adopts what they decoded.
    probed: Mutex<HashMap<String, Arc<Entry<T>>>>,
    /// The section's [`layout::Prober`], made by the first probe (`None`
    /// when the section is not framed for probing).
    prober: OnceLock<Option<Mutex<layout::Prober>>>,
}

impl<T> Lazy<T> {
    fn new(doc: &Document, key: &str, members: Members) -> Self {
        let range = doc.members.get(key).cloned().filter(|_| doc.indent > 0);
        let layout = OnceLock::new();
        if range.is_none() {
            let _ = layout.set(Entries::new(members));
        }
        Lazy {
            range,
            layout,
            full: OnceLock::new(),
            probed: Mutex::new(HashMap::new()),
            prober: OnceLock::new(),
        }
    }

    fn probed(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Entry<T>>>> {
        self.probed.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many entries have been decoded (before the split: how many
    /// probed ones).
    fn decoded(&self) -> usize {
        let layout = match self.layout.get() {
            Some(entries) => entries.decoded(),
            None => self
                .probed()
                .values()
                .filter(|e| e.cell.get().is_some())
                .count(),
        };
        layout + self.full.get().map_or(0, Entries::decoded)
    }
}

/// An entry of a section: in its split map, or found by a probe.
enum EntryRef<'a, T> {
    Split(&'a Entry<T>),
    Probed(Arc<Entry<T>>),
}

impl<T> std::ops::Deref for EntryRef<'_, T> {
    type Target = Entry<T>;

    fn deref(&self) -> &Entry<T> {
        match self {
            EntryRef::Split(e) => e,
            EntryRef::Probed(e) => e,
        }
    }
}

/// The schema tokens of a section by member name (a token's last
/// `:`-separated part): `(hash of the member name, index)` pairs, sorted.
/// A token's canonical key ends with its member name, so the tokens with a
/// given canonical key are among those with its member name: a lookup
/// canonicalises only those few (the module format is a regex) instead of
/// every token of the section. Hash collisions only add candidates, which
/// the canonical comparison then drops; building it allocates once.
#[derive(Debug)]
struct MemberIndex(Vec<(u64, usize)>);

impl MemberIndex {
    fn new<'a>(tokens: impl Iterator<Item = &'a String>) -> MemberIndex {
        let mut pairs: Vec<(u64, usize)> = tokens
            .enumerate()
            .map(|(i, t)| (member_hash(member_name(t)), i))
            .collect();
        pairs.sort_unstable();
        MemberIndex(pairs)
    }

    /// Indices of the tokens that may have member name `member`, in
    /// document order.
    fn candidates(&self, member: &str) -> impl Iterator<Item = usize> + '_ {
        let hash = member_hash(member);
        let start = self.0.partition_point(|(h, _)| *h < hash);
        self.0
            .get(start..)
            .unwrap_or_default()
            .iter()
            .take_while(move |(h, _)| *h == hash)
            .map(|(_, i)| *i)
    }
}

fn member_hash(member: &str) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    member.hash(&mut hasher);
    hasher.finish()
}

/// Decodes one entry of a section ([`Package::decode_resource`] …).
type DecodeFn<T> = fn(&Package, &str, &Entry<T>) -> Result<Arc<T>, DecodeError>;

/// A member found by [`Package::lookup_resource`] and friends.
#[derive(Clone, Debug)]
pub struct Found<T> {
    /// The token as it appears in the schema.
    pub schema_token: String,
    /// `<package>:<M>:<member>` (binder.md §5.6.1).
    pub canonical_token: String,
    /// The token the binder records: the canonical token, except that
    /// `pulumi:pulumi:X` stays as written.
    pub bound_token: String,
    pub item: Arc<T>,
}

/// What a `$ref` resolves to.
#[derive(Clone, Debug)]
pub enum Resolved {
    /// An object or enum type.
    TypeDef(Arc<TypeDef>),
    /// A resource (or provider) reference.
    Resource(Arc<Resource>),
    /// A `#/types/` token the package does not define: an opaque type,
    /// optionally with an underlying primitive.
    Token {
        token: String,
        underlying: Option<Primitive>,
    },
}

/// A resolved `$ref` together with the package that defines the target
/// (needed to resolve references inside it).
#[derive(Clone, Debug)]
pub struct ResolvedRef {
    pub package: Arc<Package>,
    pub resolved: Resolved,
}

/// A Pulumi package schema.
#[derive(Debug)]
pub struct Package {
    /// The document's bytes. In a document skimmed by layout only the
    /// parts that were read are known to be UTF-8 (see [`Package::text`]).
    src: Vec<u8>,
    origin: Option<PathBuf>,
    name: String,
    version: Option<semver::Version>,
    /// `version` as text, formatted once (lookups key by it).
    version_text: Option<Arc<str>>,
    display_name: Option<String>,
    description: Option<String>,
    plugin_download_url: Option<String>,
    module_format: ModuleFormat,
    support_pack: bool,
    language: Option<Range<usize>>,
    parameterization: Option<SchemaParameterization>,
    allowed_package_names: Vec<String>,
    dependencies: Vec<Dependency>,
    problems: Vec<SchemaProblem>,
    provider: Entry<Resource>,
    config: Entry<Config>,
    resources: Lazy<Resource>,
    functions: Lazy<Function>,
    types: Lazy<TypeDef>,
    /// Whether the document was skimmed by layout ([`crate::layout`]), so
    /// that the inside of lazily decoded members is not yet validated.
    by_layout: bool,
    /// The layout skim's indentation unit (0 for the full skim).
    indent: usize,
    /// The full serde skim, run on demand in layout mode (after a decode
    /// error, or for [`Package::decode_all`]).
    full_skim: OnceLock<Result<Document, SkimError>>,
    /// Whether the `language` member is valid JSON (checked on first use).
    language_ok: OnceLock<bool>,
    /// Whether the layout skim's sections agree with the full skim's
    /// (computed once the full skim has run).
    layout_ok: OnceLock<bool>,
}

fn version_text(version: Option<&semver::Version>) -> Option<Arc<str>> {
    version.map(|v| Arc::from(v.to_string()))
}

impl Package {
    /// Parses a schema document. `name_hint` names the package in errors
    /// raised before its own name is known; `origin` is the file it came
    /// from, if any.
    pub fn parse(
        text: impl Into<String>,
        name_hint: &str,
        origin: Option<&Path>,
    ) -> Result<Package, LoadError> {
        Package::parse_source(text.into().into_bytes(), name_hint, origin)
    }

    /// Parses schema bytes. A document skimmed by layout is checked to be
    /// UTF-8 where it is read: its key lines and small members at load,
    /// each lazily decoded member when it is decoded (so invalid UTF-8
    /// inside one is reported like malformed JSON inside it); any other
    /// document is checked whole at load.
    fn parse_source(
        src: Vec<u8>,
        name_hint: &str,
        origin: Option<&Path>,
    ) -> Result<Package, LoadError> {
        let origin = origin.map(Path::to_path_buf);
        let (doc, by_layout) = match layout::document(&src) {
            Some(doc) => (doc, true),
            None => {
                let doc = skim::document_bytes(&src).map_err(|e| {
                    let (line, column) = skim::line_col(&src, e.offset);
                    LoadError::Malformed {
                        name: name_hint.to_owned(),
                        path: origin.clone(),
                        line,
                        column,
                        message: e.message,
                    }
                })?;
                (doc, false)
            }
        };
        let top = TopLevel {
            src: &src,
            members: &doc.members,
            name_hint,
            origin: &origin,
        };
        if by_layout {
            // Everything but the lazily decoded members is validated now.
            for key in doc.members.keys() {
                if !LAZY_MEMBERS.contains(&key.as_str()) {
                    top.decode::<serde::de::IgnoredAny>(key)?;
                }
            }
        }
        let name: String = top.decode("name")?.unwrap_or_default();
        if name.is_empty() {
            return Err(top.invalid("no name provided"));
        }
        let version = match top.decode::<String>("version")? {
            Some(text) if !text.is_empty() => Some(
                decode::parse_version_tolerant(&text)
                    .ok_or_else(|| top.invalid(&format!("invalid version {text:?}")))?,
            ),
            _ => None,
        };
        let meta: RawMeta = top.decode("meta")?.unwrap_or_default();
        let (module_format, format_error) = ModuleFormat::new(meta.module_format.as_deref());
        let mut problems = Vec::new();
        if let Some(message) = format_error {
            problems.push(SchemaProblem {
                path: "#/meta/moduleFormat".to_owned(),
                message,
            });
        }
        let parameterization = match top.decode::<RawParameterization>("parameterization")? {
            Some(raw) => Some(decode::parameterization(raw).map_err(|m| top.invalid(&m))?),
            None => None,
        };
        let dependencies = top
            .decode::<Vec<RawDependency>>("dependencies")?
            .unwrap_or_default()
            .into_iter()
            .map(|d| Dependency {
                name: d.name,
                version: d.version,
                download_url: d.download_url,
                parameterization: d.parameterization.map(|p| (p.name, p.version, p.value)),
            })
            .collect();
        Ok(Package {
            display_name: top.decode("displayName")?,
            description: top.decode("description")?,
            plugin_download_url: top.decode("pluginDownloadURL")?,
            allowed_package_names: top.decode("allowedPackageNames")?.unwrap_or_default(),
            language: doc.members.get("language").cloned(),
            provider: Entry::new(doc.members.get("provider").cloned()),
            config: Entry::new(doc.members.get("config").cloned()),
            resources: Lazy::new(&doc, "resources", doc.resources.clone()),
            functions: Lazy::new(&doc, "functions", doc.functions.clone()),
            types: Lazy::new(&doc, "types", doc.types.clone()),
            name,
            version_text: version_text(version.as_ref()),
            version,
            module_format,
            support_pack: meta.support_pack || parameterization.is_some(),
            parameterization,
            dependencies,
            problems,
            origin,
            src,
            by_layout,
            indent: doc.indent,
            full_skim: OnceLock::new(),
            language_ok: OnceLock::new(),
            layout_ok: OnceLock::new(),
        })
    }

    /// Parses schema bytes (which must be UTF-8).
    pub fn parse_bytes(
        bytes: Vec<u8>,
        name_hint: &str,
        origin: Option<&Path>,
    ) -> Result<Package, LoadError> {
        Package::parse_source(bytes, name_hint, origin)
    }

    /// Fills in a version the schema does not declare (the reference takes
    /// it from the plugin; we take it from the file name).
    pub(crate) fn set_version_if_missing(&mut self, version: Option<&semver::Version>) {
        if self.version.is_none() {
            self.version = version.cloned();
            self.version_text = version_text(self.version.as_ref());
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn version(&self) -> Option<&semver::Version> {
        self.version.as_ref()
    }

    /// [`Package::version`] as text (what `to_string` gives), formatted
    /// once when the package is made.
    pub fn version_text(&self) -> Option<&Arc<str>> {
        self.version_text.as_ref()
    }

    pub fn display_name(&self) -> Option<&str> {
        self.display_name.as_deref()
    }

    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    pub fn plugin_download_url(&self) -> Option<&str> {
        self.plugin_download_url.as_deref()
    }

    /// The file the schema was read from, if any.
    pub fn origin(&self) -> Option<&Path> {
        self.origin.as_deref()
    }

    pub fn module_format(&self) -> &ModuleFormat {
        &self.module_format
    }

    pub fn support_pack(&self) -> bool {
        self.support_pack
    }

    /// The package `language` object as JSON text.
    ///
    /// `None` when absent, or when it is not valid JSON: in a document
    /// skimmed by layout the member is validated on the first call.
    pub fn language_json(&self) -> Option<&str> {
        let text = self.language.clone().and_then(|r| self.text(r).ok())?;
        let ok = *self.language_ok.get_or_init(|| {
            !self.by_layout || serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
        });
        ok.then_some(text)
    }

    pub fn parameterization(&self) -> Option<&SchemaParameterization> {
        self.parameterization.as_ref()
    }

    pub fn allowed_package_names(&self) -> &[String] {
        &self.allowed_package_names
    }

    pub fn dependencies(&self) -> &[Dependency] {
        &self.dependencies
    }

    /// Package-level problems that did not prevent loading.
    pub fn problems(&self) -> &[SchemaProblem] {
        &self.problems
    }

    /// The descriptor that loads this package again.
    pub fn descriptor(&self) -> PackageDescriptor {
        match &self.parameterization {
            None => PackageDescriptor::new(&self.name).with_version(self.version.clone()),
            Some(p) => PackageDescriptor::new(&p.base_provider.name)
                .with_version(Some(p.base_provider.version.clone()))
                .with_parameterization(crate::loader::Parameterization {
                    name: self.name.clone(),
                    version: self
                        .version
                        .clone()
                        .unwrap_or_else(|| semver::Version::new(0, 0, 0)),
                    value: p.parameter.clone(),
                }),
        }
    }

    /// The canonical key of a schema token of this package.
    pub fn canonical_token(&self, schema_token: &str) -> String {
        self.module_format.canonical(&self.name, schema_token)
    }

    /// The provider token `pulumi:providers:<name>`.
    pub fn provider_token(&self) -> String {
        format!("pulumi:providers:{}", self.name)
    }

    // ----- members by exact schema token ---------------------------------

    /// The provider resource (empty when the schema declares none).
    pub fn provider(&self) -> Result<Arc<Resource>, DecodeError> {
        let token = self.provider_token();
        self.decode_entry(
            Section::Provider,
            &token,
            &self.provider,
            |raw: RawResource| {
                let mut provider = decode::resource(&token, raw, true);
                provider
                    .properties
                    .retain(|_, p| self.is_string_provider_output(&p.ty));
                Ok(provider)
            },
        )
    }

    /// Whether a provider output the decoder kept is string-typed: a
    /// string, a reference to a string enum of this package, or a token
    /// type (a reference to a type this package does not define, or one in
    /// another package) with a `"type": "string"` hint.
    fn is_string_provider_output(&self, ty: &crate::model::SchemaType) -> bool {
        let crate::model::SchemaTypeKind::Ref(r) = &ty.kind else {
            return true;
        };
        let hinted = r.type_hint.as_deref() == Some("string");
        let local = r.package.as_ref().is_none_or(|p| p.name == self.name);
        if !local {
            return hinted;
        }
        match self.type_def(&r.token) {
            Some(Ok(def)) => matches!(
                def.as_ref(),
                TypeDef::Enum(e) if e.element_type == crate::model::Primitive::String
            ),
            Some(Err(_)) => false,
            None => hinted,
        }
    }

    /// Provider configuration variables.
    pub fn config(&self) -> Result<Arc<Config>, DecodeError> {
        self.decode_entry(Section::Config, "config", &self.config, |raw: RawConfig| {
            Ok(decode::config(raw))
        })
    }

    /// A resource by its exact schema token (the provider token included).
    pub fn resource(&self, schema_token: &str) -> Option<Result<Arc<Resource>, DecodeError>> {
        if schema_token == self.provider_token() {
            return Some(self.provider());
        }
        let entry = self.entry(&self.resources, |d| &d.resources, schema_token)?;
        Some(self.decode_resource(schema_token, &entry))
    }

    /// A function by its exact schema token.
    pub fn function(&self, schema_token: &str) -> Option<Result<Arc<Function>, DecodeError>> {
        let entry = self.entry(&self.functions, |d| &d.functions, schema_token)?;
        Some(self.decode_function(schema_token, &entry))
    }

    /// An object or enum type by its exact schema token.
    pub fn type_def(&self, schema_token: &str) -> Option<Result<Arc<TypeDef>, DecodeError>> {
        let entry = self.entry(&self.types, |d| &d.types, schema_token)?;
        Some(self.decode_type(schema_token, &entry))
    }

    /// The `$ref` values written in the text of a member, in text order,
    /// read without decoding the member: a quick look at what a member may
    /// reach. The member is the provider ([`Section::Provider`], or its
    /// token as a resource), or the resource, function or type with
    /// exactly this schema token; a member the package does not have has
    /// none. Every `"$ref": "<string>"` pair is read, wherever it is in the
    /// member, and nothing inside a string is taken for one.
    ///
    /// The text read is the text decoding reads: the scan follows the
    /// JSON structure (strings, brackets), whatever the whitespace, and
    /// when the member's range from the layout skim is not exactly one
    /// JSON value (an indentation that lies about the structure) it reads
    /// the range the full serde skim gives the member, as decoding does,
    /// so a reference the layout cut off is still found. `None` when it
    /// cannot tell: a `$ref` key written with escapes (`\u0024ref`) or a
    /// `$ref` value with an escape, or a member that is not one JSON value
    /// in a document that does not validate.
    pub fn member_refs(&self, section: Section, token: &str) -> Option<Vec<&str>> {
        let (section, range) = match section {
            Section::Provider => (Section::Provider, self.provider.range.clone()),
            Section::Resource if token == self.provider_token() => {
                (Section::Provider, self.provider.range.clone())
            }
            Section::Resource => (
                section,
                self.entry(&self.resources, |d| &d.resources, token)
                    .and_then(|e| e.range.clone()),
            ),
            Section::Function => (
                section,
                self.entry(&self.functions, |d| &d.functions, token)
                    .and_then(|e| e.range.clone()),
            ),
            Section::Type => (
                section,
                self.entry(&self.types, |d| &d.types, token)
                    .and_then(|e| e.range.clone()),
            ),
            Section::Config | Section::Package => (section, None),
        };
        let Some(range) = range else {
            return Some(Vec::new());
        };
        match scan_refs(&self.src, range.clone()) {
            RefScan::Refs(refs) => Some(refs),
            RefScan::Unreadable => None,
            RefScan::NotOneValue => {
                // The layout's range is not the member's value: read the
                // range decoding falls back to.
                let full = self.corrected_range(section, token, Some(&range))?;
                match scan_refs(&self.src, full) {
                    RefScan::Refs(refs) => Some(refs),
                    RefScan::Unreadable | RefScan::NotOneValue => None,
                }
            }
        }
    }

    /// Schema tokens of all resources, in document order (no provider).
    pub fn resource_tokens(&self) -> impl Iterator<Item = &str> + '_ {
        self.resources().map.keys().map(String::as_str)
    }

    /// Schema tokens of all functions, in document order.
    pub fn function_tokens(&self) -> impl Iterator<Item = &str> + '_ {
        self.functions().map.keys().map(String::as_str)
    }

    /// Schema tokens of all types, in document order.
    pub fn type_tokens(&self) -> impl Iterator<Item = &str> + '_ {
        self.types().map.keys().map(String::as_str)
    }

    /// Canonical tokens of all resources, in document order.
    pub fn canonical_resource_tokens(&self) -> Vec<String> {
        self.resource_tokens()
            .map(|t| self.canonical_token(t))
            .collect()
    }

    /// Canonical tokens of all functions, in document order.
    pub fn canonical_function_tokens(&self) -> Vec<String> {
        self.function_tokens()
            .map(|t| self.canonical_token(t))
            .collect()
    }

    // ----- lookups of tokens written in a program -------------------------

    /// Resolves a resource token as written in a program (binder.md
    /// §5.6.1), including `pulumi:providers:<name>`.
    ///
    /// A resource the schema gets wrong is a [`LookupError::Invalid`], as
    /// in the reference (which binds the member when it is looked up): a
    /// problem in the resource's own definition (an unknown type kind, an
    /// array without `items`, a `$ref` that cannot be parsed, a bad
    /// constant …), a `$ref` to a type or resource of this package that it
    /// does not define (a type reference with a `"type"` hint is a token
    /// type, not a problem), or a problem in a type its properties name
    /// (an object or enum type that does not decode, an enum value of the
    /// wrong type …), or a `$ref` into another package that does not
    /// resolve (a package that is malformed or lacks the type; one that
    /// cannot be found is not a problem: its types are `dynamic`); these
    /// two only with [`Package::resource_problems`] given a
    /// loader, which decodes the types named and loads the packages: a
    /// lookup alone decodes only the resource. Only the types the resource names directly are checked:
    /// loading stays lazy, and a type further away is checked when a
    /// member the program uses names it.
    pub fn lookup_resource(&self, token: &str) -> Result<Option<Found<Resource>>, LookupError> {
        let found = if token == self.provider_token() {
            let item = self.provider()?;
            Some(self.found(token, item))
        } else {
            self.lookup_in(
                token,
                &self.resources,
                Package::resources,
                Package::decode_resource,
            )?
        };
        if let Some(found) = &found {
            let problems = self.resource_problems(&found.item, None);
            if !problems.is_empty() {
                return Err(LookupError::Invalid {
                    token: found.schema_token.clone(),
                    problems,
                });
            }
        }
        Ok(found)
    }

    /// Resolves a function token as written in an `invoke`; a function the
    /// schema gets wrong is a [`LookupError::Invalid`] (see
    /// [`Package::lookup_resource`]).
    pub fn lookup_function(&self, token: &str) -> Result<Option<Found<Function>>, LookupError> {
        let found = self.lookup_in(
            token,
            &self.functions,
            Package::functions,
            Package::decode_function,
        )?;
        if let Some(found) = &found {
            let problems = self.function_problems(&found.item, None);
            if !problems.is_empty() {
                return Err(LookupError::Invalid {
                    token: found.schema_token.clone(),
                    problems,
                });
            }
        }
        Ok(found)
    }

    /// What the schema gets wrong in a resource and, given a loader, in
    /// the types it names, which are then decoded, and the references to
    /// other packages, which are then loaded through it (see
    /// [`Package::lookup_resource`]).
    pub fn resource_problems(
        &self,
        res: &Resource,
        named_types: Option<&dyn SchemaLoader>,
    ) -> Vec<SchemaProblem> {
        let mut check = MemberCheck::new(self, res.problems.clone(), named_types);
        let base = if res.is_provider {
            "#/provider".to_owned()
        } else {
            format!("#/resources/{}", res.token)
        };
        for (section, props) in [
            ("inputProperties", &res.input_properties),
            ("properties", &res.properties),
        ] {
            for p in props.values() {
                check.ty(&format!("{base}/{section}/{}", p.name), &p.ty);
            }
        }
        if let Some(state) = &res.state_inputs {
            check.object(&format!("{base}/stateInputs"), state);
        }
        check.problems
    }

    /// What the schema gets wrong in a function and, given a loader, in
    /// the types it names (see [`Package::resource_problems`]).
    pub fn function_problems(
        &self,
        f: &Function,
        named_types: Option<&dyn SchemaLoader>,
    ) -> Vec<SchemaProblem> {
        let mut check = MemberCheck::new(self, f.problems.clone(), named_types);
        let base = format!("#/functions/{}", f.token);
        if let Some(inputs) = &f.inputs {
            check.problems.extend(inputs.problems.iter().cloned());
            check.object(&format!("{base}/inputs"), inputs);
        }
        match &f.return_type {
            Some(crate::model::ReturnType::Object { object, .. }) => {
                check.problems.extend(object.problems.iter().cloned());
                check.object(&format!("{base}/outputs"), object);
            }
            Some(crate::model::ReturnType::Type(t)) => check.ty(&format!("{base}/outputs"), t),
            None => {}
        }
        check.problems
    }

    /// Resolves a type token with the same canonicalisation.
    pub fn lookup_type(&self, token: &str) -> Result<Option<Found<TypeDef>>, LookupError> {
        self.lookup_in(token, &self.types, Package::types, Package::decode_type)
    }

    /// A method of a resource: the function its `methods` map names, if
    /// the package has it.
    pub fn method(
        &self,
        resource: &Resource,
        name: &str,
    ) -> Option<Result<Arc<Function>, DecodeError>> {
        let token = resource.methods.get(name)?;
        self.function(token)
    }

    /// Whether a function is a method: its token is `<resource>/<name>` and
    /// that resource lists it among its methods.
    pub fn is_method(&self, function_token: &str) -> bool {
        let Some((resource_token, _)) = method_parts(function_token) else {
            return false;
        };
        match self.resource(resource_token) {
            Some(Ok(res)) => res.methods.values().any(|t| t == function_token),
            _ => false,
        }
    }

    /// Decodes every member; returns the errors (for validation and tests).
    ///
    /// For a document skimmed by layout this also validates the whole
    /// document (a malformation outside every member is reported with
    /// [`Section::Package`]) and checks that the layout skim found exactly
    /// the members the full skim finds.
    pub fn decode_all(&self) -> Vec<DecodeError> {
        let mut errors = Vec::new();
        if self.by_layout {
            match self.full_skim() {
                Err(e) => {
                    errors.push(self.package_error(e.offset, e.message.clone()));
                }
                Ok(doc) => {
                    if !self.layout_ok(doc) {
                        errors.push(self.package_error(0, LAYOUT_MISMATCH.to_owned()));
                    }
                }
            }
        }
        errors.extend(self.provider().err());
        errors.extend(self.config().err());
        for (tok, e) in &self.resources().map {
            errors.extend(self.decode_resource(tok, e).err());
        }
        for (tok, e) in &self.functions().map {
            errors.extend(self.decode_function(tok, e).err());
        }
        for (tok, e) in &self.types().map {
            errors.extend(self.decode_type(tok, e).err());
        }
        errors
    }

    /// How many members have been decoded so far (to check laziness).
    pub fn decoded_count(&self) -> usize {
        let count = |n: bool| usize::from(n);
        count(self.provider.cell.get().is_some())
            + count(self.config.cell.get().is_some())
            + self.resources.decoded()
            + self.functions.decoded()
            + self.types.decoded()
    }

    // ----- references ----------------------------------------------------

    /// Resolves a `$ref` found in this package. References to other
    /// packages load them through `loader` (exact version first; when that
    /// version is not available, the loader's default version).
    pub fn resolve_ref(
        self: &Arc<Self>,
        reference: &TypeRef,
        loader: &dyn SchemaLoader,
    ) -> Result<ResolvedRef, ResolveError> {
        let external = reference.package.as_ref().filter(|p| {
            p.name != self.name || self.version.as_ref().is_some_and(|v| *v != p.version)
        });
        match external {
            Some(p) => {
                let request = PackageDescriptor::new(&p.name).with_version(Some(p.version.clone()));
                let pkg = match loader.load(&request) {
                    Ok(pkg) => pkg,
                    Err(LoadError::NotFound { available, .. }) if !available.is_empty() => {
                        loader.load(&PackageDescriptor::new(&p.name))?
                    }
                    Err(e) => return Err(e.into()),
                };
                pkg.resolve_in_self(reference, true)
            }
            None => self.resolve_in_self(reference, false),
        }
    }

    fn resolve_in_self(
        self: &Arc<Self>,
        reference: &TypeRef,
        external: bool,
    ) -> Result<ResolvedRef, ResolveError> {
        let not_found = || ResolveError::NotFound {
            reference: reference.raw.clone(),
            package: self.name.clone(),
        };
        let resolved = match reference.kind {
            RefKind::Provider => Resolved::Resource(self.provider()?),
            RefKind::Resource => {
                let found = match self.resource(&reference.token) {
                    Some(r) => Some(r?),
                    None if external => self.lookup_resource(&reference.token)?.map(|f| f.item),
                    None => None,
                };
                Resolved::Resource(found.ok_or_else(not_found)?)
            }
            RefKind::Type => match self.type_def(&reference.token) {
                Some(t) => Resolved::TypeDef(t?),
                None if external => match self.lookup_type(&reference.token)? {
                    Some(f) => Resolved::TypeDef(f.item),
                    None => return Err(not_found()),
                },
                None => {
                    let underlying = match reference.type_hint.as_deref() {
                        None => None,
                        Some(name) => Some(Primitive::parse(name).ok_or_else(|| {
                            ResolveError::BadUnderlyingType {
                                reference: reference.raw.clone(),
                                type_name: name.to_owned(),
                            }
                        })?),
                    };
                    Resolved::Token {
                        token: reference.token.clone(),
                        underlying,
                    }
                }
            },
        };
        Ok(ResolvedRef {
            package: Arc::clone(self),
            resolved,
        })
    }

    // ----- internals -----------------------------------------------------

    fn resources(&self) -> &Entries<Resource> {
        self.section(&self.resources, |d| &d.resources)
    }

    fn functions(&self) -> &Entries<Function> {
        self.section(&self.functions, |d| &d.functions)
    }

    fn types(&self) -> &Entries<TypeDef> {
        self.section(&self.types, |d| &d.types)
    }

    /// A section's entries. In a document skimmed by layout these are the
    /// layout's until the full skim has run (after a decode error, a miss
    /// or [`Package::decode_all`]); from then on, if the layout turned out
    /// to disagree with the document's structure (dishonest indentation),
    /// the full skim's, so that what was validated is what is used.
    fn section<'a, T>(
        &'a self,
        lazy: &'a Lazy<T>,
        full: fn(&Document) -> &Members,
    ) -> &'a Entries<T> {
        if let Some(Ok(doc)) = self.full_skim.get() {
            if self.by_layout && !self.layout_ok(doc) {
                return lazy.full.get_or_init(|| Entries::new(full(doc).clone()));
            }
        }
        self.layout_section(lazy, full)
    }

    /// A section's entries as the layout skim splits them, on first use.
    /// When its layout is irregular the full skim splits it (and when the
    /// document is malformed the section reads as empty: lookups that miss
    /// then report the malformation, see [`Package::check_miss`]).
    fn layout_section<'a, T>(
        &'a self,
        lazy: &'a Lazy<T>,
        full: fn(&Document) -> &Members,
    ) -> &'a Entries<T> {
        lazy.layout.get_or_init(|| {
            let members = lazy
                .range
                .clone()
                .and_then(|r| layout::section(&self.src, r, self.indent));
            match members.and_then(unique_entries) {
                Some(map) => {
                    // What probes decoded stays decoded.
                    for (token, probed) in lazy.probed().iter() {
                        let Some(decoded) = probed.cell.get() else {
                            continue;
                        };
                        if let Some(entry) = map.get(token).filter(|e| e.range == probed.range) {
                            let _ = entry.cell.set(decoded.clone());
                        }
                    }
                    Entries {
                        map,
                        index: OnceLock::new(),
                    }
                }
                None => match self.full_skim() {
                    Ok(doc) => Entries::new(full(doc).clone()),
                    Err(_) => Entries::new(Members::new()),
                },
            }
        })
    }

    /// The entry of an exact schema token: from the section's split when
    /// it has been split (or validated), else found by a probe when the
    /// section's keys are sorted, else from the split.
    fn entry<'a, T>(
        &'a self,
        lazy: &'a Lazy<T>,
        full: fn(&Document) -> &Members,
        token: &str,
    ) -> Option<EntryRef<'a, T>> {
        if let Some(entry) = self.probe(lazy, token) {
            return Some(entry);
        }
        self.section(lazy, full).map.get(token).map(EntryRef::Split)
    }

    /// An entry found without splitting its section ([`layout::Prober`]):
    /// only in a document skimmed by layout, before its section is split
    /// and before the document is validated (from then on the split or the
    /// full skim answers).
    fn probe<'a, T>(&'a self, lazy: &'a Lazy<T>, token: &str) -> Option<EntryRef<'a, T>> {
        if !self.probe_ready(lazy) {
            return None;
        }
        let range = lazy.range.clone()?;
        if let Some(entry) = lazy.probed().get(token) {
            return Some(EntryRef::Probed(Arc::clone(entry)));
        }
        let prober = lazy
            .prober
            .get_or_init(|| layout::Prober::new(&self.src, range, self.indent).map(Mutex::new))
            .as_ref()?;
        let found = prober
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .probe(&self.src, token)?;
        let entry = Arc::clone(
            lazy.probed()
                .entry(token.to_owned())
                .or_insert_with(|| Arc::new(Entry::new(Some(found)))),
        );
        Some(EntryRef::Probed(entry))
    }

    fn probe_ready<T>(&self, lazy: &Lazy<T>) -> bool {
        self.by_layout
            && lazy.range.is_some()
            && lazy.layout.get().is_none()
            && self.full_skim.get().is_none()
    }

    /// Whether the layout skim found exactly the members the full skim
    /// `doc` finds, in every section.
    fn layout_ok(&self, doc: &Document) -> bool {
        *self.layout_ok.get_or_init(|| {
            same(
                &doc.resources,
                &self.layout_section(&self.resources, |d| &d.resources).map,
            ) && same(
                &doc.functions,
                &self.layout_section(&self.functions, |d| &d.functions).map,
            ) && same(
                &doc.types,
                &self.layout_section(&self.types, |d| &d.types).map,
            )
        })
    }

    /// A token lookup in one section (binder.md §5.6.1). A miss in a
    /// document skimmed by layout validates the document first
    /// ([`Package::check_miss`]); when that shows the layout was wrong,
    /// the lookup is answered again from the full skim's entries.
    fn lookup_in<'a, T>(
        &'a self,
        token: &str,
        lazy: &'a Lazy<T>,
        section: fn(&Package) -> &Entries<T>,
        decode: DecodeFn<T>,
    ) -> Result<Option<Found<T>>, LookupError> {
        // A token that is its own canonical key and is found exactly is
        // what the two-step lookup picks (see `exact`).
        if self.probe_ready(lazy) && self.canonical_token(token) == token {
            if let Some(entry) = self.probe(lazy, token) {
                return Ok(Some(self.found(token, decode(self, token, &entry)?)));
            }
        }
        let attempt = |sec: &Entries<T>| -> Result<Option<Found<T>>, LookupError> {
            if let Some((tok, entry)) = self.exact(&sec.map, token) {
                return Ok(Some(self.found(tok, decode(self, tok, entry)?)));
            }
            let index = sec.index.get_or_init(|| MemberIndex::new(sec.map.keys()));
            match self.find(&sec.map, index, token)? {
                Some(i) => match sec.map.get_index(i) {
                    Some((tok, entry)) => Ok(Some(self.found(tok, decode(self, tok, entry)?))),
                    None => Ok(None),
                },
                None => Ok(None),
            }
        };
        if let Some(found) = attempt(section(self))? {
            return Ok(Some(found));
        }
        self.check_miss()?;
        // After the check the section may be the full skim's.
        attempt(section(self))
    }

    /// Before a lookup reports "not found" in a document skimmed by
    /// layout: validates the whole document (once), so that a miss is
    /// never an artefact of the fast path. A malformed document is an
    /// error; a layout that disagrees with the structure makes
    /// [`Package::section`] use the full skim's entries from now on.
    fn check_miss(&self) -> Result<(), LookupError> {
        if !self.by_layout {
            return Ok(());
        }
        match self.full_skim() {
            Err(e) => Err(LookupError::Decode(
                self.package_error(e.offset, e.message.clone()),
            )),
            Ok(_) => Ok(()),
        }
    }

    /// An exact schema-token hit that the two-step lookup would also pick:
    /// when the written token is its own canonical key, every token in its
    /// canonical bucket ties and the exact match wins (binder.md §5.6.1),
    /// so the member index is not needed.
    fn exact<'m, T>(
        &self,
        map: &'m IndexMap<String, Entry<T>>,
        written: &str,
    ) -> Option<(&'m String, &'m Entry<T>)> {
        let (tok, entry) = map.get_key_value(written)?;
        (self.canonical_token(written) == written).then_some((tok, entry))
    }

    /// The full serde skim of the document (validates all of it).
    fn full_skim(&self) -> &Result<Document, SkimError> {
        self.full_skim
            .get_or_init(|| skim::document_bytes(&self.src))
    }

    /// The text of a member range (see [`text_at`]).
    fn text(&self, range: Range<usize>) -> Result<&str, usize> {
        text_at(&self.src, range)
    }

    fn package_error(&self, offset: usize, message: String) -> DecodeError {
        let (line, column) = skim::line_col(&self.src, offset);
        DecodeError {
            package: self.name.clone(),
            section: Section::Package,
            token: String::new(),
            line,
            column,
            message,
        }
    }

    /// In layout mode, the range the full skim gives a member whose
    /// layout range did not decode, when it differs.
    fn corrected_range(
        &self,
        section: Section,
        token: &str,
        range: Option<&Range<usize>>,
    ) -> Option<Range<usize>> {
        if !self.by_layout {
            return None;
        }
        let doc = self.full_skim().as_ref().ok()?;
        let full = match section {
            Section::Resource => doc.resources.get(token),
            Section::Function => doc.functions.get(token),
            Section::Type => doc.types.get(token),
            Section::Provider => doc.members.get("provider"),
            Section::Config => doc.members.get("config"),
            Section::Package => None,
        }?;
        (Some(full) != range).then(|| full.clone())
    }

    fn found<T>(&self, schema_token: &str, item: Arc<T>) -> Found<T> {
        let canonical_token = self.canonical_token(schema_token);
        let bound_token = if schema_token.starts_with("pulumi:pulumi:") {
            schema_token.to_owned()
        } else {
            canonical_token.clone()
        };
        Found {
            schema_token: schema_token.to_owned(),
            canonical_token,
            bound_token,
            item,
        }
    }

    /// The two-step lookup of binder.md §5.6.1: the schema tokens whose
    /// canonical key is the written token, else those whose canonical key
    /// is the written token's canonical form.
    fn find<T>(
        &self,
        map: &IndexMap<String, Entry<T>>,
        index: &MemberIndex,
        written: &str,
    ) -> Result<Option<usize>, LookupError> {
        let canonical: Vec<(usize, &str, String)> = index
            .candidates(member_name(written))
            .filter_map(|i| map.get_index(i).map(|(t, _)| (i, t.as_str())))
            .map(|(i, t)| (i, t, self.canonical_token(t)))
            .collect();
        let with_key = |key: &str| -> Vec<(usize, &str)> {
            canonical
                .iter()
                .filter(|(_, _, c)| c == key)
                .map(|(i, t, _)| (*i, *t))
                .collect()
        };
        let mut hits = with_key(written);
        if hits.is_empty() && decompose(written).is_ok() {
            hits = with_key(&self.canonical_token(written));
        }
        match hits.as_slice() {
            [] => Ok(None),
            [(one, _)] => Ok(Some(*one)),
            many => {
                if let Some((i, _)) = many.iter().find(|(_, t)| *t == written) {
                    return Ok(Some(*i));
                }
                Err(LookupError::Ambiguous {
                    token: written.to_owned(),
                    candidates: many.iter().map(|(_, t)| (*t).to_owned()).collect(),
                })
            }
        }
    }

    fn decode_resource(
        &self,
        token: &str,
        entry: &Entry<Resource>,
    ) -> Result<Arc<Resource>, DecodeError> {
        self.decode_entry(Section::Resource, token, entry, |raw: RawResource| {
            Ok(decode::resource(token, raw, false))
        })
    }

    fn decode_function(
        &self,
        token: &str,
        entry: &Entry<Function>,
    ) -> Result<Arc<Function>, DecodeError> {
        self.decode_entry(Section::Function, token, entry, |raw: RawFunction| {
            decode::function(token, raw)
        })
    }

    fn decode_type(
        &self,
        token: &str,
        entry: &Entry<TypeDef>,
    ) -> Result<Arc<TypeDef>, DecodeError> {
        self.decode_entry(Section::Type, token, entry, |raw: RawComplexType| {
            decode::type_def(token, raw)
        })
    }

    fn decode_entry<T, R: DeserializeOwned>(
        &self,
        section: Section,
        token: &str,
        entry: &Entry<T>,
        convert: impl FnOnce(R) -> Result<T, String>,
    ) -> Result<Arc<T>, DecodeError> {
        entry
            .cell
            .get_or_init(|| {
                let first = self.decode_range::<R>(section, token, entry.range.clone());
                match first {
                    Ok(raw) => convert(raw).map(Arc::new).map_err(|message| {
                        let start = entry.range.as_ref().map_or(0, |r| r.start);
                        self.member_error(section, token, start, message)
                    }),
                    Err(err) => match self.corrected_range(section, token, entry.range.as_ref()) {
                        Some(range) => {
                            let start = range.start;
                            let raw = self.decode_range::<R>(section, token, Some(range))?;
                            convert(raw).map(Arc::new).map_err(|message| {
                                self.member_error(section, token, start, message)
                            })
                        }
                        None => Err(err),
                    },
                }
            })
            .clone()
    }

    fn member_error(
        &self,
        section: Section,
        token: &str,
        offset: usize,
        message: String,
    ) -> DecodeError {
        let (line, column) = skim::line_col(&self.src, offset);
        DecodeError {
            package: self.name.clone(),
            section,
            token: token.to_owned(),
            line,
            column,
            message,
        }
    }

    /// Deserializes the member text at `range` (an absent member reads as
    /// `{}`); the text must be exactly one JSON value.
    fn decode_range<R: DeserializeOwned>(
        &self,
        section: Section,
        token: &str,
        range: Option<Range<usize>>,
    ) -> Result<R, DecodeError> {
        let start = range.as_ref().map_or(0, |r| r.start);
        let text = match range {
            Some(r) => self.text(r).map_err(|offset| {
                self.member_error(section, token, offset, INVALID_UTF8.to_owned())
            })?,
            None => "{}",
        };
        serde_json::from_str(text).map_err(|e| {
            let offset = start + skim::offset_of(text, e.line(), e.column());
            self.member_error(section, token, offset, e.to_string())
        })
    }
}

const LAYOUT_MISMATCH: &str = "the document's indentation does not match its structure";

const INVALID_UTF8: &str = "invalid UTF-8";

/// What [`scan_refs`] found in a member's text.
#[derive(Debug, PartialEq)]
enum RefScan<'a> {
    /// The text is exactly one JSON object (by its strings and braces);
    /// its `$ref` string values in text order.
    Refs(Vec<&'a str>),
    /// A `$ref` key or value is written with escapes.
    Unreadable,
    /// The text is not exactly one object: braces do not balance, or
    /// something follows the closing one.
    NotOneValue,
}

/// The `$ref` string values of a member's text (see
/// [`Package::member_refs`]) at `range` of the document, read by the
/// JSON structure: braces and `"$ref"` keys count only outside strings
/// ([`Outside`]). Checks only the structure that decides which
/// text belongs to the member (its braces balance and close at the end),
/// not the rest of the grammar: a member that is malformed otherwise fails
/// to decode, and then nothing reads its references. Only braces and
/// `"$ref"` are visited (`memchr` passes), each with a look at its own
/// line, so the strings in between (descriptions) are not read.
fn scan_refs(src: &[u8], range: Range<usize>) -> RefScan<'_> {
    // The searchers are built once (building one costs more than
    // scanning a small member).
    static ESCAPE: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(b"\\u00"));
    static REF_KEY: LazyLock<memchr::memmem::Finder<'static>> =
        LazyLock::new(|| memchr::memmem::Finder::new(b"\"$ref\""));
    let Some(text) = src.get(range.clone()) else {
        return RefScan::NotOneValue;
    };
    let base = range.start;
    let start = text
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(text.len());
    if text.get(start) != Some(&b'{') {
        return RefScan::NotOneValue;
    }
    // The member's object ends at the brace that balances its first one;
    // only braces outside strings count (a member is an object, so arrays
    // cannot close it).
    let mut depth = 0usize;
    let mut end = None;
    let mut outside = Outside::new(src);
    for at in memchr::memchr2_iter(b'{', b'}', text) {
        match outside.at(base + at) {
            Some(true) => {}
            Some(false) => continue,
            None => return RefScan::NotOneValue,
        }
        if text.get(at) == Some(&b'{') {
            depth += 1;
            continue;
        }
        depth = match depth.checked_sub(1) {
            Some(d) => d,
            None => return RefScan::NotOneValue,
        };
        if depth == 0 {
            end = Some(at + 1);
            break;
        }
    }
    let Some(end) = end else {
        return RefScan::NotOneValue;
    };
    if !text
        .get(end..)
        .unwrap_or_default()
        .iter()
        .all(u8::is_ascii_whitespace)
    {
        return RefScan::NotOneValue;
    }
    // `$`, `r`, `e` and `f` written as escapes could spell a `$ref` key.
    let escaped = ESCAPE.find_iter(text).any(|at| {
        matches!(
            text.get(at + 4..at + 6),
            Some(b"24" | b"72" | b"65" | b"66")
        )
    });
    if escaped {
        return RefScan::Unreadable;
    }
    let mut refs = Vec::new();
    let mut outside = Outside::new(src);
    for at in REF_KEY.find_iter(text) {
        match outside.at(base + at) {
            Some(true) => {}
            Some(false) => continue,
            None => return RefScan::NotOneValue,
        }
        let rest = text.get(at + 6..).unwrap_or_default().trim_ascii_start();
        let Some(rest) = rest.strip_prefix(b":") else {
            continue;
        };
        let Some(value) = rest.trim_ascii_start().strip_prefix(b"\"") else {
            continue;
        };
        let Some(close) = memchr::memchr2(b'"', b'\\', value) else {
            return RefScan::NotOneValue;
        };
        if value.get(close) != Some(&b'"') {
            return RefScan::Unreadable;
        }
        match value.get(..close).map(std::str::from_utf8) {
            Some(Ok(v)) => refs.push(v),
            _ => return RefScan::NotOneValue,
        }
    }
    RefScan::Refs(refs)
}

/// Tells whether offsets of the document, asked in increasing order, are
/// outside every string. JSON strings cannot hold a line break, so every
/// line starts outside one: a `{` that ends its line, and a `}` or `"`
/// that only indentation precedes, are outside (pretty-printing puts
/// nearly every brace and key there); otherwise the unescaped quotes
/// before the offset on its line are counted, from the last offset counted
/// when that is on the same line, so a long line is read once.
struct Outside<'a> {
    src: &'a [u8],
    /// An offset whose state is known, and whether it is inside a string.
    cursor: usize,
    inside: bool,
}

impl<'a> Outside<'a> {
    fn new(src: &'a [u8]) -> Self {
        Outside {
            src,
            cursor: 0,
            inside: false,
        }
    }

    /// Whether `at` is outside every string; `None` when it cannot tell
    /// (never in a valid document).
    fn at(&mut self, at: usize) -> Option<bool> {
        let src = self.src;
        let plain = if src.get(at) == Some(&b'{') {
            // Ends its line.
            let after = src.get(at + 1..).unwrap_or_default();
            let spaces = after.iter().take_while(|b| **b == b' ').count();
            matches!(after.get(spaces), Some(b'\n' | b'\r'))
        } else {
            // Only indentation before it.
            let before = src.get(..at)?;
            let spaces = before.iter().rev().take_while(|b| **b == b' ').count();
            spaces == at || before.get(at - spaces - 1) == Some(&b'\n')
        };
        if plain {
            return Some(true);
        }
        if self.cursor > at {
            (self.cursor, self.inside) = (0, false);
        }
        let mut seg = src.get(self.cursor..at)?;
        if let Some(nl) = memchr::memrchr(b'\n', seg) {
            seg = seg.get(nl + 1..)?;
            self.inside = false;
        }
        if memchr::memchr(b'\\', seg).is_none() {
            self.inside ^= memchr::memchr_iter(b'"', seg).count() % 2 == 1;
        } else {
            // Skip the quotes preceded by an odd number of backslashes.
            for q in memchr::memchr_iter(b'"', seg) {
                let run = seg
                    .get(..q)?
                    .iter()
                    .rev()
                    .take_while(|b| **b == b'\\')
                    .count();
                if !self.inside || run % 2 == 0 {
                    self.inside = !self.inside;
                }
            }
        }
        self.cursor = at;
        Some(!self.inside)
    }
}

/// The text of `range` in `src`, or the offset of its first byte that is
/// not UTF-8 (or of the range, when it is out of bounds).
fn text_at(src: &[u8], range: Range<usize>) -> Result<&str, usize> {
    let start = range.start;
    let bytes = src.get(range).ok_or(start)?;
    std::str::from_utf8(bytes).map_err(|e| start + e.valid_up_to())
}

/// Top-level members that are validated when decoded, not at load.
const LAZY_MEMBERS: [&str; 6] = [
    "provider",
    "config",
    "language",
    "resources",
    "functions",
    "types",
];

/// A token's member name: its last `:`-separated part, which ends its
/// canonical key too ([`ModuleFormat::canonical`]).
fn member_name(token: &str) -> &str {
    token.rsplit(':').next().unwrap_or(token)
}

/// Whether a section's entries are exactly the full skim's members.
fn same<T>(full: &Members, ours: &IndexMap<String, Entry<T>>) -> bool {
    full.len() == ours.len()
        && full
            .iter()
            .zip(ours)
            .all(|((k, r), (k2, e))| k == k2 && e.range.as_ref() == Some(r))
}

/// The entries of a layout-split section; `None` when a key repeats (its
/// subtleties are left to the full skim).
fn unique_entries<T>(keyed: layout::Keyed) -> Option<IndexMap<String, Entry<T>>> {
    let mut map = IndexMap::with_capacity(keyed.len());
    for (key, range) in keyed {
        if map.insert(key, Entry::new(Some(range))).is_some() {
            return None;
        }
    }
    Some(map)
}

fn entries<T>(members: Members) -> IndexMap<String, Entry<T>> {
    members
        .into_iter()
        .map(|(k, r)| (k, Entry::new(Some(r))))
        .collect()
}

/// Decoding of the small top-level members.
struct TopLevel<'a> {
    src: &'a [u8],
    members: &'a Members,
    name_hint: &'a str,
    origin: &'a Option<PathBuf>,
}

impl TopLevel<'_> {
    fn decode<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, LoadError> {
        let Some(range) = self.members.get(key) else {
            return Ok(None);
        };
        let malformed = |offset: usize, message: String| {
            let (line, column) = skim::line_col(self.src, offset);
            LoadError::Malformed {
                name: self.name_hint.to_owned(),
                path: self.origin.clone(),
                line,
                column,
                message,
            }
        };
        let text = text_at(self.src, range.clone())
            .map_err(|offset| malformed(offset, format!("#/{key}: {INVALID_UTF8}")))?;
        serde_json::from_str::<Option<T>>(text).map_err(|e| {
            let offset = range.start + skim::offset_of(text, e.line(), e.column());
            malformed(offset, format!("#/{key}: {e}"))
        })
    }

    fn invalid(&self, message: &str) -> LoadError {
        LoadError::Invalid {
            name: self.name_hint.to_owned(),
            path: self.origin.clone(),
            message: message.to_owned(),
        }
    }
}

/// An anonymous object type's convenience: whether it has a property.
impl ObjectType {
    pub fn has_property(&self, name: &str) -> bool {
        self.properties.contains_key(name)
    }
}

/// The checks of [`Package::resource_problems`]: the `$ref`s in a
/// member's property types, each type named checked once.
struct MemberCheck<'p> {
    pkg: &'p Package,
    problems: Vec<SchemaProblem>,
    seen: std::collections::HashSet<String>,
    /// Decode the types named and report their problems, and resolve
    /// references to other packages through this loader (else only check
    /// that the types of this package exist).
    named_types: Option<&'p dyn SchemaLoader>,
}

impl<'p> MemberCheck<'p> {
    fn new(
        pkg: &'p Package,
        problems: Vec<SchemaProblem>,
        named_types: Option<&'p dyn SchemaLoader>,
    ) -> Self {
        MemberCheck {
            pkg,
            problems,
            seen: std::collections::HashSet::new(),
            named_types,
        }
    }

    fn problem(&mut self, path: String, message: String) {
        self.problems.push(SchemaProblem { path, message });
    }

    fn object(&mut self, path: &str, o: &ObjectType) {
        for p in o.properties.values() {
            self.ty(&format!("{path}/properties/{}", p.name), &p.ty);
        }
    }

    /// The references in a type spec (through arrays, maps and unions,
    /// which nest as deep as the schema text, so the walk keeps its own
    /// stack).
    fn ty(&mut self, path: &str, ty: &crate::model::SchemaType) {
        use crate::model::SchemaTypeKind as K;
        let mut stack = vec![(path.to_owned(), ty)];
        while let Some((path, ty)) = stack.pop() {
            match &ty.kind {
                K::Array(e) => stack.push((format!("{path}/items"), e)),
                K::Map(e) => stack.push((format!("{path}/additionalProperties"), e)),
                K::Union(u) => {
                    for (i, m) in u.members.iter().enumerate().rev() {
                        stack.push((format!("{path}/oneOf/{i}"), m));
                    }
                }
                K::Ref(r) => self.reference(&path, r),
                K::Primitive(_) | K::Builtin(_) | K::Invalid(_) => {}
            }
        }
    }

    fn reference(&mut self, path: &str, r: &TypeRef) {
        if let Some(other) = r.package.as_ref().filter(|p| p.name != self.pkg.name) {
            let Some(loader) = self.named_types else {
                return;
            };
            if !self.seen.insert(r.raw.clone()) {
                return;
            }
            // As `resolve_ref`: the exact version, else the default one.
            let request =
                PackageDescriptor::new(&other.name).with_version(Some(other.version.clone()));
            let loaded = match loader.load(&request) {
                Err(LoadError::NotFound { available, .. }) if !available.is_empty() => {
                    loader.load(&PackageDescriptor::new(&other.name))
                }
                other => other,
            };
            match loaded {
                // Not in the schema directories or the cache: pcl cannot
                // tell a package that does not exist from one not
                // downloaded (the reference would fetch it), so its types
                // are `dynamic`, as for a package the program names.
                Err(LoadError::NotFound { .. }) => {}
                Err(e) => self.problem(
                    format!("{path}/$ref"),
                    format!("resolving package {}: {e}", r.raw),
                ),
                Ok(pkg) => {
                    let found = match r.kind {
                        RefKind::Type => pkg.type_def(&r.token).is_some() || r.type_hint.is_some(),
                        RefKind::Resource => pkg.resource(&r.token).is_some(),
                        RefKind::Provider => true,
                    };
                    if !found {
                        let what = if r.kind == RefKind::Type {
                            "type"
                        } else {
                            "resource type"
                        };
                        self.problem(
                            format!("{path}/$ref"),
                            format!("{what} {} not found in package {}", r.token, other.name),
                        );
                    }
                }
            }
            return;
        }
        let name = self.pkg.name.clone();
        match r.kind {
            RefKind::Type => {
                if !self.seen.insert(r.token.clone()) {
                    return;
                }
                if self.named_types.is_none() {
                    let exists = self
                        .pkg
                        .entry(&self.pkg.types, |d| &d.types, &r.token)
                        .is_some();
                    if !exists && r.type_hint.is_none() {
                        self.problem(
                            format!("{path}/$ref"),
                            format!("type {} not found in package {name}", r.token),
                        );
                    }
                    return;
                }
                match self.pkg.type_def(&r.token) {
                    None if r.type_hint.is_some() => {}
                    None => self.problem(
                        format!("{path}/$ref"),
                        format!("type {} not found in package {name}", r.token),
                    ),
                    Some(Err(e)) => self.problem(format!("#/types/{}", r.token), e.message),
                    Some(Ok(def)) => {
                        let own = match def.as_ref() {
                            TypeDef::Object(o) => &o.problems,
                            TypeDef::Enum(e) => &e.problems,
                        };
                        self.problems.extend(own.iter().cloned());
                    }
                }
            }
            RefKind::Resource => {
                if self.pkg.resource(&r.token).is_none() {
                    self.problem(
                        format!("{path}/$ref"),
                        format!("resource type {} not found in package {name}", r.token),
                    );
                }
            }
            RefKind::Provider => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn version_text_is_the_formatted_version() {
        for declared in ["1.0.0", "v2.3.4", "0.0.1-alpha.1+build.7", "10.20.30-rc.10"] {
            let doc = format!(r#"{{"name": "m", "version": "{declared}"}}"#);
            let pkg = Package::parse(doc, "m", None).unwrap();
            let want = pkg.version().map(ToString::to_string);
            assert!(want.is_some(), "{declared}");
            assert_eq!(pkg.version_text().map(|v| v.to_string()), want);
        }
        let mut pkg = Package::parse(r#"{"name": "m"}"#, "m", None).unwrap();
        assert_eq!(pkg.version_text(), None);
        let from_file = semver::Version::parse("3.1.4-beta.2").unwrap();
        pkg.set_version_if_missing(Some(&from_file));
        assert_eq!(pkg.version_text().map(|v| &**v), Some("3.1.4-beta.2"));
        // A declared version is kept, text included.
        let other = semver::Version::parse("9.9.9").unwrap();
        pkg.set_version_if_missing(Some(&other));
        assert_eq!(pkg.version_text().map(|v| &**v), Some("3.1.4-beta.2"));
    }

    #[test]
    fn member_refs_reads_ref_strings_without_decoding() {
        let doc = r##"{
  "name": "m",
  "version": "1.0.0",
  "provider": {"inputProperties": {"k": {"$ref": "#/types/m:index:K"}}},
  "resources": {
    "m:index:R": {
      "description": "a \"$ref\" in text, and \"$ref\": \"x\"",
      "inputProperties": {
        "a": {"$ref": "#/types/m:index:A"},
        "b": {"type": "array", "items": {"$ref"  :  "/other/v1.0.0/schema.json#/types/o:index:B"}},
        "$ref": {"type": "string"}
      },
      "properties": {"c": {"$ref": 5}, "d": {"$ref": "pulumi.json#/Any"}}
    },
    "m:index:Escaped": {"inputProperties": {"a": {"\u0024ref": "#/types/m:index:A"}}},
    "m:index:EscapedValue": {"inputProperties": {"a": {"$ref": "#\/types\/m:index:A"}}}
  },
  "types": {"m:index:A": {"type": "object", "properties": {"b": {"type": "string"}}}}
}"##;
        let pkg = match Package::parse(doc, "m", None) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(
            pkg.member_refs(Section::Resource, "m:index:R"),
            Some(vec![
                "#/types/m:index:A",
                "/other/v1.0.0/schema.json#/types/o:index:B",
                "pulumi.json#/Any"
            ])
        );
        assert_eq!(pkg.member_refs(Section::Type, "m:index:A"), Some(vec![]));
        assert_eq!(
            pkg.member_refs(Section::Type, "m:index:Missing"),
            Some(vec![])
        );
        assert_eq!(
            pkg.member_refs(Section::Provider, ""),
            Some(vec!["#/types/m:index:K"])
        );
        assert_eq!(pkg.member_refs(Section::Resource, "m:index:Escaped"), None);
        assert_eq!(
            pkg.member_refs(Section::Resource, "m:index:EscapedValue"),
            None
        );
        assert_eq!(pkg.decoded_count(), 0);
    }

    /// The scan follows the JSON structure: brackets inside strings do
    /// not count, a range that is not exactly one value is recognised, and
    /// a `$ref` key is a string followed by `:`.
    #[test]
    fn scan_refs_follows_the_structure() {
        fn refs(t: &str) -> RefScan<'_> {
            scan_refs(t.as_bytes(), 0..t.len())
        }
        assert_eq!(
            refs(r##"{"a": "}{][", "b": {"$ref": "#/types/x"}, "c": ["$ref", "$ref"]}"##),
            RefScan::Refs(vec!["#/types/x"])
        );
        assert_eq!(
            refs("{\"$ref\" :\n \"/o/v1.0.0/schema.json#/types/o:i:T\"}\n  "),
            RefScan::Refs(vec!["/o/v1.0.0/schema.json#/types/o:i:T"])
        );
        assert_eq!(
            refs(r##"{"d": "a \"$ref\": \"#/types/x\""}"##),
            RefScan::Refs(vec![])
        );
        assert_eq!(refs(r##"{"\u0024ref": "#/types/x"}"##), RefScan::Unreadable);
        assert_eq!(
            refs(r##"{"\u0041": {"$ref": "#/types/x"}}"##),
            RefScan::Refs(vec!["#/types/x"])
        );
        assert_eq!(refs(r##"{"$ref": "#\/types/x"}"##), RefScan::Unreadable);
        // Escaped quotes and backslashes around braces, over several lines.
        assert_eq!(
            refs(
                "{\"d\": \"x \\\"{\\\\\" ,\n  \"e\": {\"$ref\": \"#/a\"},\n  \"f\": \"}\\\"}\"\n}"
            ),
            RefScan::Refs(vec!["#/a"])
        );
        for not_one in [
            r##"{"a": {"$ref": "#/types/x"}"##,
            r##"{"a": 1}, "b": {"$ref": "#/types/x"}"##,
            r##"{"a": 1}}"##,
            r##"{"a": "unclosed}"##,
            r##""a string""##,
            "",
        ] {
            assert_eq!(refs(not_one), RefScan::NotOneValue, "{not_one}");
        }
    }

    /// Over every stretch of a document with braces, quotes and `$ref`s
    /// inside strings (compact and pretty-printed): the scan never panics,
    /// and a stretch that starts outside strings and is one JSON object is
    /// read as one, with the references serde sees.
    #[test]
    fn scan_refs_agrees_with_serde_on_every_stretch() {
        let compact = "{\"a\": {\"$ref\": \"#/types/p:i:A\"},\n \"d\": \"{ \\\"$ref\\\": \\\"x\\\" }\",\n  \"b\": [{\"$ref\": \"/q/v1.0.0/schema.json#/types/q:i:B\"}, \"}\"],\n\"c\": {\"e\": \"\\\\\", \"f\": {\"g\": \"{\\\"\"}}}\n";
        fn refs_of(v: &serde_json::Value, out: &mut Vec<String>) {
            match v {
                serde_json::Value::Object(m) => {
                    for (k, v) in m {
                        match (k.as_str(), v) {
                            ("$ref", serde_json::Value::String(r)) => out.push(r.clone()),
                            _ => refs_of(v, out),
                        }
                    }
                }
                serde_json::Value::Array(a) => a.iter().for_each(|v| refs_of(v, out)),
                _ => {}
            }
        }
        let whole: serde_json::Value = serde_json::from_str(compact).unwrap();
        let mut want = Vec::new();
        refs_of(&whole, &mut want);
        assert_eq!(want.len(), 2);
        let pretty = serde_json::to_string_pretty(&whole).unwrap();
        let mut checked = 0;
        for doc in [compact, pretty.as_str()] {
            let bytes = doc.as_bytes();
            // Which offsets are outside strings, by a plain walk.
            let mut outside = Vec::with_capacity(bytes.len());
            let (mut inside, mut escape) = (false, false);
            for b in bytes {
                outside.push(!inside);
                match (inside, escape, b) {
                    (true, true, _) => escape = false,
                    (true, false, b'\\') => escape = true,
                    (_, false, b'"') => inside = !inside,
                    _ => {}
                }
            }
            for start in 0..bytes.len() {
                for end in start..=bytes.len() {
                    let scanned = scan_refs(bytes, start..end);
                    if outside.get(start) != Some(&true) {
                        continue;
                    }
                    let Some(text) = bytes.get(start..end) else {
                        continue;
                    };
                    if let Ok(v @ serde_json::Value::Object(_)) =
                        serde_json::from_slice::<serde_json::Value>(text)
                    {
                        let mut refs = Vec::new();
                        refs_of(&v, &mut refs);
                        let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
                        assert_eq!(scanned, RefScan::Refs(refs), "{start}..{end}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 20, "{checked}");
    }

    /// A document whose indentation lies: nested keys of `p:index:A` are
    /// indented like members, so the layout's range for `A` stops before
    /// the cross-package reference in its `properties`. The scan sees that the
    /// range is not one value and reads the member's real text (as
    /// decoding does), so the reference is found; so it is in the same
    /// schema minified, or indented oddly (which the layout skim declines).
    #[test]
    fn member_refs_are_found_whatever_the_indentation() {
        const LYING: &str = "{\n  \"name\": \"p\",\n  \"types\": {\n    \"p:index:A\": {\"type\": \"object\", \"required\": [\n    ],\n    \"p:index:Phantom\": {\"type\": \"string\"},\n    \"properties\": {\n      \"x\": {\"$ref\": \"/other/v1.0.0/schema.json#/types/other:index:T\"}\n    }\n    },\n    \"p:index:B\": {\"type\": \"object\"}\n  }\n}\n";
        let real: serde_json::Value = serde_json::from_str(LYING).unwrap();
        assert_eq!(
            real["types"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["p:index:A", "p:index:B"]
        );
        let minified = real.to_string();
        let odd = serde_json::to_string_pretty(&real)
            .unwrap()
            .replace("\n    \"", "\n \t  \"");
        let want = Some(vec!["/other/v1.0.0/schema.json#/types/other:index:T"]);
        for (name, src) in [("lying", LYING), ("minified", &minified), ("odd", &odd)] {
            let pkg = Package::parse(src, "p", None).unwrap();
            assert_eq!(pkg.by_layout, name != "minified", "{name}");
            assert_eq!(pkg.member_refs(Section::Type, "p:index:A"), want, "{name}");
            assert_eq!(
                pkg.member_refs(Section::Type, "p:index:B"),
                Some(vec![]),
                "{name}"
            );
            // Decoding reads the same text.
            let a = pkg.type_def("p:index:A").unwrap().unwrap();
            let TypeDef::Object(a) = a.as_ref() else {
                panic!("{name}: not an object")
            };
            assert!(a.has_property("x"), "{name}");
        }
    }

    #[test]
    fn package_is_send_and_sync() {
        assert_send_sync::<Package>();
        assert_send_sync::<Arc<Package>>();
    }

    #[test]
    fn lazy_decoding_and_errors_with_positions() {
        let src = "{\"name\":\"p\",\"resources\":{\n\"p:index:A\":{\"inputProperties\":{\"x\":{\"type\":\"string\"}}},\n\"p:index:B\":{\"properties\":[1]}}}";
        let pkg = Package::parse(src, "p", None).unwrap();
        assert_eq!(pkg.decoded_count(), 0);
        let a = pkg.resource("p:index:A").unwrap().unwrap();
        assert!(a.input("x").is_some());
        assert_eq!(pkg.decoded_count(), 1);
        let err = pkg.resource("p:index:B").unwrap().unwrap_err();
        assert_eq!((err.line, err.section), (3, Section::Resource));
        assert!(err.column > 13, "{err}");
    }

    #[test]
    fn missing_name_and_bad_json() {
        assert!(matches!(
            Package::parse("{}", "x", None),
            Err(LoadError::Invalid { .. })
        ));
        let err = Package::parse("{\n \"name\": 3}", "x", None).unwrap_err();
        assert!(matches!(err, LoadError::Malformed { line: 2, .. }), "{err}");
        let err =
            Package::parse("{\"name\":\"x\",\n\"resources\": {\"a\": }}", "x", None).unwrap_err();
        assert!(
            matches!(
                err,
                LoadError::Malformed {
                    line: 2,
                    column: 20,
                    ..
                }
            ),
            "{err}"
        );
        let err = Package::parse_bytes(b"{\"name\":\"\xff\"}".to_vec(), "x", None).unwrap_err();
        assert!(matches!(err, LoadError::Malformed { .. }), "{err}");
    }

    /// A valid document whose indentation lies: `p:index:A`'s value holds
    /// `p:index:Phantom` and `p:index:Last` as nested keys, indented like
    /// members. The layout skim cannot tell without reading every byte of
    /// the values before them (which is what it avoids), so the phantom is
    /// listed and found until something validates the document; from then
    /// on the package uses the full skim's members.
    const DISHONEST: &str = "{\n  \"name\": \"p\",\n  \"resources\": {\n    \"p:index:A\": {\"inputProperties\": {\n    },\n    \"p:index:Phantom\": {},\n    \"p:index:Last\": {\n    }\n    },\n    \"p:index:B\": {}\n  }\n}\n";

    fn real_tokens() -> Vec<String> {
        let real: serde_json::Value = serde_json::from_str(DISHONEST).unwrap();
        real["resources"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    }

    #[test]
    fn dishonest_indentation_is_corrected_once_validated() {
        assert_eq!(real_tokens(), ["p:index:A", "p:index:B"]);
        let phantom = ["p:index:A", "p:index:Phantom", "p:index:Last", "p:index:B"];

        // Validated by looking up the member that holds the phantom: its
        // layout range does not decode, so the full skim runs.
        let pkg = Package::parse(DISHONEST, "p", None).unwrap();
        assert!(pkg.by_layout);
        // Known limitation: before any validation the nested keys are
        // listed and found as members.
        assert_eq!(pkg.resource_tokens().collect::<Vec<_>>(), phantom);
        assert!(pkg.lookup_resource("p:index:Phantom").unwrap().is_some());
        let a = pkg.lookup_resource("p:index:A").unwrap().unwrap();
        assert!(a.item.input_properties.is_empty());
        assert_eq!(pkg.resource_tokens().collect::<Vec<_>>(), real_tokens());
        assert!(pkg.lookup_resource("p:index:Phantom").unwrap().is_none());
        assert!(pkg.resource("p:index:Last").is_none());
        assert!(pkg.lookup_resource("p:index:B").unwrap().is_some());

        // Validated by a miss: the miss is true of the real document, and
        // the phantom found by the layout is not there on a second look.
        let pkg = Package::parse(DISHONEST, "p", None).unwrap();
        assert!(pkg.lookup_resource("p:index:Nope").unwrap().is_none());
        assert!(pkg.lookup_resource("p:index:Phantom").unwrap().is_none());
        assert_eq!(pkg.resource_tokens().collect::<Vec<_>>(), real_tokens());

        // decode_all reports the lying layout and decodes the real members.
        let pkg = Package::parse(DISHONEST, "p", None).unwrap();
        let errors = pkg.decode_all();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].message, LAYOUT_MISMATCH);
        // provider, config and the two real resources.
        assert_eq!(pkg.decoded_count(), 4);
        assert_eq!(pkg.resource_tokens().collect::<Vec<_>>(), real_tokens());
    }

    /// Exact lookups in a sorted section probe it instead of splitting it;
    /// a later split keeps what the probes decoded.
    #[test]
    fn exact_lookups_probe_sorted_sections() {
        let src = "{\n  \"name\": \"p\",\n  \"resources\": {\n    \"p:m:A\": {\n      \"inputProperties\": {\"x\": {\"type\": \"string\"}}\n    },\n    \"p:m:B\": {},\n    \"p:m:C\": {\"properties\": {\"y\": {\"$ref\": \"#/types/p:index:T\"}}}\n  },\n  \"types\": {\n    \"p:index:T\": {\"type\": \"object\"},\n    \"p:index:U\": {\"type\": \"object\"}\n  }\n}\n";
        let pkg = Package::parse(src, "p", None).unwrap();
        assert!(pkg.by_layout);
        let a = pkg.lookup_resource("p:m:A").unwrap().unwrap();
        assert!(a.item.input("x").is_some());
        let c = pkg.resource("p:m:C").unwrap().unwrap();
        assert!(pkg.type_def("p:index:T").unwrap().is_ok());
        assert!(pkg.resources.layout.get().is_none());
        assert!(pkg.types.layout.get().is_none());
        assert_eq!(pkg.decoded_count(), 3);
        // Splitting adopts the decoded entries.
        assert_eq!(pkg.resource_tokens().count(), 3);
        assert_eq!(pkg.decoded_count(), 3);
        let again = pkg.lookup_resource("p:m:A").unwrap().unwrap();
        assert!(Arc::ptr_eq(&a.item, &again.item));
        assert!(Arc::ptr_eq(&c, &pkg.resource("p:m:C").unwrap().unwrap()));
        assert!(pkg.decode_all().is_empty());
        // A miss splits (and validates) as before.
        let pkg = Package::parse(src, "p", None).unwrap();
        assert!(pkg.type_def("p:index:Nope").is_none());
        assert!(pkg.types.layout.get().is_some());
    }

    #[test]
    fn member_index_lists_candidates_in_document_order() {
        let tokens: Vec<String> = ["p:a/x:X", "p:b:Y", "p:c:X", "p:X", "q::X"]
            .iter()
            .map(|t| (*t).to_owned())
            .collect();
        let index = MemberIndex::new(tokens.iter());
        assert_eq!(index.candidates("X").collect::<Vec<_>>(), [0, 2, 3, 4]);
        assert_eq!(index.candidates("Y").collect::<Vec<_>>(), [1]);
        assert_eq!(index.candidates("Z").count(), 0);
        assert_eq!(MemberIndex::new([].iter()).candidates("X").count(), 0);
    }

    #[test]
    fn repeated_section_key_is_left_to_the_full_skim() {
        let src = "{\n  \"name\": \"p\",\n  \"resources\": {\n    \"p:index:A\": {\n      \"inputProperties\": {}\n    },\n    \"p:index:A\": {\n      \"inputProperties\": {\"x\": {\"type\": \"string\"}}\n    }\n  }\n}\n";
        let full = skim::document(src).unwrap();
        let pkg = Package::parse(src, "p", None).unwrap();
        assert!(pkg.by_layout);
        let tokens: Vec<&str> = pkg.resource_tokens().collect();
        assert_eq!(tokens, ["p:index:A"]);
        let range = full.resources["p:index:A"].clone();
        let a = pkg.lookup_resource("p:index:A").unwrap().unwrap();
        assert_eq!(a.item.input("x").is_some(), src[range].contains("\"x\""));
        assert!(pkg.decode_all().is_empty());
    }

    #[test]
    fn invalid_utf8_is_reported_where_it_is_read() {
        let doc = |resource_b: &[u8], description: &[u8], key_b: &[u8]| -> Vec<u8> {
            let mut out = b"{\n  \"name\": \"p\",\n  \"description\": \"".to_vec();
            out.extend_from_slice(description);
            out.extend_from_slice(b"\",\n  \"resources\": {\n    \"p:index:A\": {\n      \"description\": \"ok\"\n    },\n    \"p:index:");
            out.extend_from_slice(key_b);
            out.extend_from_slice(b"\": {\n      \"description\": \"");
            out.extend_from_slice(resource_b);
            out.extend_from_slice(b"\"\n    }\n  }\n}\n");
            out
        };
        // Well-formed: loads by layout, both resources decode.
        let good = Package::parse_bytes(doc(b"caf\xc3\xa9", b"d", b"B"), "p", None).unwrap();
        assert!(good.by_layout);
        assert_eq!(
            good.lookup_resource("p:index:B")
                .unwrap()
                .unwrap()
                .item
                .description
                .as_deref(),
            Some("caf\u{e9}")
        );
        assert!(good.decode_all().is_empty());

        // Inside a lazily decoded member: reported when it is touched, with
        // its position; the rest of the package works.
        let pkg = Package::parse_bytes(doc(b"x\xff", b"d", b"B"), "p", None).unwrap();
        assert!(pkg.lookup_resource("p:index:A").unwrap().is_some());
        match pkg.lookup_resource("p:index:B").unwrap_err() {
            LookupError::Decode(e) => {
                assert_eq!(
                    (e.section, e.line, e.message.as_str()),
                    (Section::Resource, 9, INVALID_UTF8)
                );
                assert_eq!(e.column, 24, "{e}");
            }
            other => panic!("{other}"),
        }
        // A miss validates the whole document first.
        let miss = pkg.lookup_resource("p:index:Nope").unwrap_err();
        assert!(
            matches!(&miss, LookupError::Decode(e) if e.section == Section::Package && e.line == 9),
            "{miss}"
        );
        assert!(!pkg.decode_all().is_empty());

        // In a small top-level member: the load fails.
        match Package::parse_bytes(doc(b"x", b"\xff", b"B"), "p", None) {
            Err(LoadError::Malformed { line, message, .. }) => {
                assert!(message.contains(INVALID_UTF8), "{message}");
                assert_eq!(line, 3);
            }
            other => panic!("{other:?}"),
        }
        // In a key of a section: the section cannot be split, so every
        // lookup in it reports the malformation.
        let pkg = Package::parse_bytes(doc(b"x", b"d", b"\xffB"), "p", None).unwrap();
        let err = pkg.lookup_resource("p:index:A").unwrap_err();
        assert!(
            matches!(&err, LookupError::Decode(e) if e.section == Section::Package && e.line == 8 && e.message == INVALID_UTF8),
            "{err}"
        );
    }

    #[test]
    fn layout_skim_defers_member_validation_but_never_lies() {
        let src = "{\n  \"name\": \"p\",\n  \"resources\": {\n    \"p:index:A\": {\n      \"inputProperties\": {}\n    },\n    \"p:index:B\": {\n      \"inputProperties\": {\"x\": tru}\n    }\n  }\n}\n";
        let pkg = Package::parse(src, "p", None).unwrap();
        assert!(pkg.by_layout);
        assert!(pkg.lookup_resource("p:index:A").unwrap().is_some());
        // The malformed member is reported when touched, with its position.
        let err = pkg.lookup_resource("p:index:B").unwrap_err();
        match err {
            LookupError::Decode(e) => assert_eq!((e.line, e.section), (8, Section::Resource)),
            other => panic!("{other}"),
        }
        // A miss validates the document: it is malformed, so no "None".
        let miss = pkg.lookup_resource("p:index:Nope").unwrap_err();
        assert!(
            matches!(&miss, LookupError::Decode(e) if e.section == Section::Package && e.line == 8),
            "{miss}"
        );
        assert!(!pkg.decode_all().is_empty());
        // Malformed small top-level members still fail the load.
        let bad = "{\n  \"name\": \"p\",\n  \"keywords\": [1 2]\n}\n";
        let err = Package::parse(bad, "p", None).unwrap_err();
        assert!(matches!(err, LoadError::Malformed { line: 3, .. }), "{err}");
    }
}
