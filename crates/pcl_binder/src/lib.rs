//! Binding whole PCL programs against Pulumi package schemas.
//!
//! This crate owns the *program* level of checking (binder.md §5–§7): the
//! block kinds (`resource`, `read`, `component`, `config`, `output`, locals,
//! `hook`, `pulumi`, `package`), declaration and duplicate rules, dependency
//! order and cycles, resource and component checking against schemas, the
//! resource options, the mapping of schema types to PCL types, the one
//! policy object ([`BindPolicy`]), and the bound [`Program`] model that code
//! generators consume. It must not touch the typing of single expressions
//! (that is `pcl_expr`, which this crate feeds through its `Environment`),
//! the type algebra (`pcl_types`), parsing (`pcl_syntax`), schema decoding
//! and loading (`pcl_schema`) or rendering (`pcl_diagnostics`).
//!
//! Binding never fails: [`check_program`] always returns a [`Program`] and
//! the diagnostics found, sorted deterministically. Sources are passed in
//! memory; components read their directories through a [`FileProvider`]
//! ([`MemoryFiles`] or [`FsFiles`]). A process that checks many programs
//! keeps the packages it loaded and the PCL types converted from their
//! schemas in a [`SchemaCache`] ([`check_program_cached`]): each check
//! then converts only what no earlier check converted, with results
//! identical to a check of its own. Within one check, the conversion
//! questions of every expression share their answers (a
//! [`pcl_types::ConversionMemo`] lives for the check). An editor
//! re-checks an edit inside one declaration of a
//! [`check_program_for_edits`] result with [`recheck_edit`], which
//! re-binds that declaration alone when the result is the full check's
//! (`incremental.rs` says when) and otherwise hands the previous check
//! back for a full one.
//!
//! # Example
//!
//! ```
//! use pcl_binder::{check_program, BindPolicy, NodeKind};
//! use pcl_schema::MemoryLoader;
//!
//! let loader = MemoryLoader::new();
//! let sources = vec![(
//!     "main.pp".to_string(),
//!     "config name string {}\ngreeting = \"hello ${name}\"\noutput out { value = greeting }\n".to_string(),
//! )];
//! let checked = check_program(&sources, &loader, &BindPolicy::strict());
//! assert!(!checked.has_errors());
//! let program = checked.value();
//! let names: Vec<&str> = program.ordered_nodes().map(|n| n.name.as_str()).collect();
//! assert_eq!(names, ["name", "greeting", "out"]);
//! assert!(matches!(program.nodes()[0].kind, NodeKind::Config(_)));
//! ```

mod blocks;
pub mod codes;
mod component;
mod deps;
mod env;
pub mod files;
mod incremental;
mod linearize;
pub mod model;
mod packages;
pub mod policy;
mod program;
mod resource;
pub mod schema_types;
pub mod siblings;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex};

use pcl_diagnostics::{Diagnostic, Severity, SourceMap};
use pcl_schema::{CachingLoader, LoadError, Package, PackageDescriptor, SchemaLoader};

pub use files::{FileProvider, FsFiles, MemoryFiles, NoFiles};
pub use model::{
    comment_groups, BoundAttribute, Checked, Comment, CommentGroup, ComponentNode, ConfigNode,
    HookKind, HookNode, LocalNode, Node, NodeKind, OutputNode, PackageUse, Program, ProgramFile,
    PulumiNode, RangeKind, ResourceNode, ResourceOptions, SchemaResourceRef, OPTION_ORDER,
};
pub use pcl_expr::{BoundExprKind, BoundRef, BoundTree, Definition, NodeId, Unresolved};
pub use policy::{BindPolicy, CheckOptions};
pub use resource::OPTION_NAMES;
pub use schema_types::{SchemaObjectAnnotation, SchemaResourceAnnotation};
pub use siblings::{DeclaredNames, Siblings};

use schema_types::Conversions;

/// Checks a program given as `(file name, text)` pairs. Components with a
/// source directory report an error (there are no files to read); use
/// [`check_program_with_files`] for them.
pub fn check_program(
    sources: &[(String, String)],
    loader: &dyn SchemaLoader,
    policy: &BindPolicy,
) -> Checked<Program> {
    check_program_with_files(sources, loader, policy, &NoFiles)
}

/// Checks a program whose components are read from `files` (which says
/// where the program's directory lies under the root, see [`files`]).
pub fn check_program_with_files(
    sources: &[(String, String)],
    loader: &dyn SchemaLoader,
    policy: &BindPolicy,
    files: &dyn FileProvider,
) -> Checked<Program> {
    check_with(
        sources,
        loader,
        policy,
        files,
        None,
        Conversions::default(),
        false,
    )
    .0
}

/// Checks one file of a multi-file program alone (`sources` is that
/// file): names that `siblings` (the other files of its directory)
/// declare are `dynamic` and, instead of `undefined-variable` errors, one
/// `declared-in-sibling` note per declaring file says so.
pub fn check_file_with_files(
    sources: &[(String, String)],
    loader: &dyn SchemaLoader,
    policy: &BindPolicy,
    files: &dyn FileProvider,
    siblings: &Siblings,
) -> Checked<Program> {
    check_with(
        sources,
        loader,
        policy,
        files,
        Some(siblings),
        Conversions::default(),
        false,
    )
    .0
}

/// [`check_program_with_files`] with the schemas of `cache`: packages are
/// loaded once per cache, and the PCL types converted from their schemas
/// by earlier checks (with the same type-relevant policy) are reused. The
/// result is exactly that of [`check_program_with_files`] with
/// `cache.loader()`.
pub fn check_program_cached<L: SchemaLoader>(
    sources: &[(String, String)],
    cache: &SchemaCache<L>,
    policy: &BindPolicy,
    files: &dyn FileProvider,
) -> Checked<Program> {
    check_cached(sources, cache, policy, files, None)
}

/// [`check_file_with_files`] with the schemas of `cache` (see
/// [`check_program_cached`]).
pub fn check_file_cached<L: SchemaLoader>(
    sources: &[(String, String)],
    cache: &SchemaCache<L>,
    policy: &BindPolicy,
    files: &dyn FileProvider,
    siblings: &Siblings,
) -> Checked<Program> {
    check_cached(sources, cache, policy, files, Some(siblings))
}

/// [`check_program_cached`], keeping in the program what
/// [`recheck_edit`] needs to re-check an edit by re-binding one
/// declaration (the root scope and each declaration's kind, as long as
/// the program lives): the language server's checks.
pub fn check_program_for_edits<L: SchemaLoader>(
    sources: &[(String, String)],
    cache: &SchemaCache<L>,
    policy: &BindPolicy,
    files: &dyn FileProvider,
) -> Checked<Program> {
    check_cached_keeping(sources, cache, policy, files, None, true)
}

fn check_cached<L: SchemaLoader>(
    sources: &[(String, String)],
    cache: &SchemaCache<L>,
    policy: &BindPolicy,
    files: &dyn FileProvider,
    siblings: Option<&Siblings>,
) -> Checked<Program> {
    check_cached_keeping(sources, cache, policy, files, siblings, false)
}

fn check_cached_keeping<L: SchemaLoader>(
    sources: &[(String, String)],
    cache: &SchemaCache<L>,
    policy: &BindPolicy,
    files: &dyn FileProvider,
    siblings: Option<&Siblings>,
    for_edits: bool,
) -> Checked<Program> {
    let key = ConversionKey::of(policy);
    let kept = cache.take(key);
    let (checked, conv) = check_with(
        sources,
        &cache.loader,
        policy,
        files,
        siblings,
        kept.unwrap_or_default(),
        for_edits,
    );
    // A conversion depends only on what is converted (see
    // `schema_types`), so every one can serve later checks.
    cache.keep(key, conv);
    checked
}

fn check_with(
    sources: &[(String, String)],
    loader: &dyn SchemaLoader,
    policy: &BindPolicy,
    files: &dyn FileProvider,
    siblings: Option<&Siblings>,
    conv: Conversions,
    for_edits: bool,
) -> (Checked<Program>, Conversions) {
    // The program's conversion questions share their answers.
    let _conversions = pcl_types::remember_conversions();
    let shared = program::Shared {
        schemas: schema_types::Schemas::with_conversions(loader, policy, conv),
        policy: policy.clone(),
        files,
        components: RefCell::new(HashMap::new()),
        stack: RefCell::new(Vec::new()),
        input_types: RefCell::new(pcl_types::InputTypeMemo::new()),
        literals: RefCell::new(pcl_types::LiteralTypes::new()),
        invokes: RefCell::new(HashMap::new()),
        siblings: siblings.filter(|s| !s.is_empty()),
        sibling_uses: siblings::SiblingUses::default(),
        for_edits,
    };
    let mut map = SourceMap::new();
    let dir = files.program_dir();
    let (mut program, mut diags) = program::bind_program(&shared, &mut map, sources, &dir, 0);
    // The program's own directory, relative to itself.
    program.directory = String::new();
    diags.extend(shared.sibling_uses.into_diagnostics());
    widen_empty_ranges(&mut diags, &map);
    let diags = finish_diagnostics(diags.into_vec(), policy);
    let conv = shared.schemas.into_conversions();
    (Checked::new(program, map, diags), conv)
}

/// Re-checks `previous`, a check of [`check_program_for_edits`] with `cache`
/// and `policy`, after file `file`'s text became `text`, re-binding only
/// the declaration the edit lies in when that gives what a full check of
/// the new text gives (see `incremental.rs` for when it does): nothing
/// else is parsed, bound or read, and the other nodes and diagnostics
/// move past the edit ([`Recheck::Rebound`]). Otherwise `previous` comes
/// back untouched, with why ([`Recheck::Full`]), and the caller checks the
/// program in full. The other files are taken as unchanged.
pub fn recheck_edit<L: SchemaLoader>(
    previous: Checked<Program>,
    file: pcl_diagnostics::FileId,
    text: &str,
    cache: &SchemaCache<L>,
    policy: &BindPolicy,
) -> Recheck {
    let key = ConversionKey::of(policy);
    let kept = cache.take(key);
    let _conversions = pcl_types::remember_conversions();
    let shared = program::Shared {
        schemas: schema_types::Schemas::with_conversions(
            &cache.loader,
            policy,
            kept.unwrap_or_default(),
        ),
        policy: policy.clone(),
        files: &NoFiles,
        components: RefCell::new(HashMap::new()),
        stack: RefCell::new(Vec::new()),
        input_types: RefCell::new(pcl_types::InputTypeMemo::new()),
        literals: RefCell::new(pcl_types::LiteralTypes::new()),
        invokes: RefCell::new(HashMap::new()),
        siblings: None,
        sibling_uses: siblings::SiblingUses::default(),
        for_edits: true,
    };
    let result = incremental::recheck(previous, file, text, &shared);
    cache.keep(key, shared.schemas.into_conversions());
    result
}

pub use incremental::{Fallback, Recheck};

/// What schema type conversion depends on besides the schemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct ConversionKey {
    non_strict_objects: bool,
    allow_missing_properties: bool,
}

impl ConversionKey {
    fn of(policy: &BindPolicy) -> ConversionKey {
        ConversionKey {
            non_strict_objects: policy.non_strict_objects(),
            allow_missing_properties: policy.allow_missing_properties,
        }
    }
}

/// The packages loaded and the PCL types converted from their schemas, kept
/// across the checks of a long-running process ([`check_program_cached`]).
///
/// Packages are loaded through `L` once per (name, version) requested, like
/// a [`CachingLoader`] without built-ins (so `L` decides about the built-in
/// `pulumi` package), so a package is the same for every check. Converted
/// types are kept per type-relevant policy (whether schema objects are
/// strict and properties optional) and keyed by package name, version and
/// token, as within one check. A check takes a set of kept conversions for
/// itself (so checks on several threads never share one while converting),
/// converts what it lacks, and gives it back; concurrent checks each get
/// their own set. A conversion depends only on the schema type converted
/// (each schema object is converted lazily, on its own), so results never
/// depend on earlier checks. The kept conversions also remember `InputType`
/// of the converted types a check asks it of (function inputs, resource
/// input properties), a pure function of the type.
pub struct SchemaCache<L> {
    loader: CachingLoader<L>,
    kept: Mutex<HashMap<ConversionKey, Vec<Conversions>>>,
}

impl<L: SchemaLoader> SchemaCache<L> {
    pub fn new(loader: L) -> SchemaCache<L> {
        SchemaCache {
            loader: CachingLoader::new(loader).without_builtins(),
            kept: Mutex::new(HashMap::new()),
        }
    }

    /// The loader, with its cache of loaded packages.
    pub fn loader(&self) -> &CachingLoader<L> {
        &self.loader
    }

    fn take(&self, key: ConversionKey) -> Option<Conversions> {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        kept.get_mut(&key).and_then(Vec::pop)
    }

    fn keep(&self, key: ConversionKey, conv: Conversions) {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        kept.entry(key).or_default().push(conv);
    }
}

impl<L: SchemaLoader> SchemaLoader for SchemaCache<L> {
    fn load(&self, request: &PackageDescriptor) -> Result<Arc<Package>, LoadError> {
        self.loader.load(request)
    }
}

/// Checks the program in directory `dir` (every `*.pp` file directly in
/// it; components from its sub-directories), with `dir` as the root.
/// Files are named `<dir>/<file>` in diagnostics; a file that is not UTF-8,
/// not a readable regular file or outside the root is reported as in a
/// component ([`files::FileProblem`]). Fails only when `dir` cannot be read.
pub fn check_directory(
    dir: &Path,
    loader: &dyn SchemaLoader,
    policy: &BindPolicy,
) -> Result<Checked<Program>, String> {
    let files = FsFiles::new(dir);
    let listing = files.list_dir("")?;
    let checked = check_program_with_files(&listing.files, loader, policy, &files);
    if listing.problems.is_empty() {
        return Ok(checked);
    }
    let (program, map, mut diags) = checked.into_parts();
    let ids: HashMap<&str, pcl_diagnostics::FileId> =
        map.iter().map(|(id, f)| (f.name(), id)).collect();
    for problem in &listing.problems {
        if let Some(id) = ids.get(problem.name.as_str()) {
            diags.push(problem.diagnostic(*id));
        }
    }
    pcl_diagnostics::sort_and_dedup(&mut diags);
    Ok(Checked::new(program, map, diags))
}

/// Gives every diagnostic (and related label) in a non-empty file a
/// non-empty range: an empty range (a point, e.g. from a node that error
/// recovery left empty) is widened to the character at that point, or the
/// one before it at the end of the file. Found by the `check` fuzz target.
fn widen_empty_ranges(diags: &mut [Diagnostic], map: &SourceMap) {
    widen_empty_ranges_in(diags, &|file| map.get(file).map(|f| f.text()));
}

/// [`widen_empty_ranges`] with the text of each file from `text_of`.
pub(crate) fn widen_empty_ranges_in<'t>(
    diags: &mut [Diagnostic],
    text_of: &dyn Fn(pcl_diagnostics::FileId) -> Option<&'t str>,
) {
    let widen = |span: &mut pcl_diagnostics::Span| {
        if !span.range.is_empty() {
            return;
        }
        let Some(text) = text_of(span.file) else {
            return;
        };
        let at = span.range.start as usize;
        if at > text.len() || !text.is_char_boundary(at) {
            return;
        }
        let next = text.get(at..).and_then(|t| t.chars().next());
        let prev = text.get(..at).and_then(|t| t.chars().next_back());
        let (start, end) = match (next, prev) {
            (Some(c), _) => (at, at + c.len_utf8()),
            (None, Some(c)) => (at - c.len_utf8(), at),
            (None, None) => return,
        };
        span.range = pcl_diagnostics::TextRange::from_usize(start..end);
    };
    for d in diags {
        widen(&mut d.span);
        for label in d.related_mut() {
            widen(&mut label.span);
        }
    }
}

/// Sorts, removes duplicates, and keeps one `unknown-package` diagnostic
/// per package (the first). In strict mode an unknown package is an error
/// wherever it is found.
fn finish_diagnostics(mut diags: Vec<Diagnostic>, policy: &BindPolicy) -> Vec<Diagnostic> {
    let strict_packages = !policy.skip_invoke_typecheck && !policy.skip_resource_typecheck;
    for d in &mut diags {
        if d.code == codes::UNKNOWN_PACKAGE && strict_packages {
            d.severity = Severity::Error;
        }
    }
    pcl_diagnostics::sort_and_dedup(&mut diags);
    let mut seen_packages: HashSet<String> = HashSet::new();
    diags.retain(|d| d.code != codes::UNKNOWN_PACKAGE || seen_packages.insert(d.summary.clone()));
    diags
}
