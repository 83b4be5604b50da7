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
//! ([`MemoryFiles`] or [`FsFiles`]).
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
mod linearize;
pub mod model;
mod packages;
pub mod policy;
mod program;
mod resource;
pub mod schema_types;

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

use pcl_diagnostics::{Diagnostic, Severity, SourceMap};
use pcl_schema::SchemaLoader;

pub use files::{FileProvider, FsFiles, MemoryFiles, NoFiles};
pub use model::{
    BoundAttribute, Checked, ComponentNode, ConfigNode, HookKind, HookNode, LocalNode, Node,
    NodeKind, OutputNode, PackageUse, Program, ProgramFile, PulumiNode, RangeKind, ResourceNode,
    ResourceOptions, SchemaResourceRef,
};
pub use pcl_expr::{BoundExpr, BoundExprKind, Definition, NodeId};
pub use policy::{BindPolicy, CheckOptions};
pub use schema_types::{SchemaObjectAnnotation, SchemaResourceAnnotation};

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

/// Checks a program whose components are read from `files` (paths relative
/// to the program root, which is the directory of `sources`).
pub fn check_program_with_files(
    sources: &[(String, String)],
    loader: &dyn SchemaLoader,
    policy: &BindPolicy,
    files: &dyn FileProvider,
) -> Checked<Program> {
    let shared = program::Shared {
        schemas: schema_types::Schemas::new(loader, policy),
        policy: policy.clone(),
        files,
        components: RefCell::new(HashMap::new()),
        stack: RefCell::new(Vec::new()),
        input_types: RefCell::new(pcl_types::InputTypeMemo::new()),
        invokes: RefCell::new(HashMap::new()),
    };
    let mut map = SourceMap::new();
    let (program, mut diags) = program::bind_program(&shared, &mut map, sources.to_vec(), "", 0);
    widen_empty_ranges(&mut diags, &map);
    let diags = finish_diagnostics(diags, policy);
    Checked::new(program, map, diags)
}

/// Checks the program in directory `dir` (every `*.pp` file directly in
/// it; components from its sub-directories). Files are named
/// `<dir>/<file>` in diagnostics. Fails only when `dir` cannot be read.
pub fn check_directory(
    dir: &Path,
    loader: &dyn SchemaLoader,
    policy: &BindPolicy,
) -> Result<Checked<Program>, String> {
    let files = FsFiles::new(dir);
    let sources = files.read_dir("")?;
    Ok(check_program_with_files(&sources, loader, policy, &files))
}

/// Gives every diagnostic (and related label) in a non-empty file a
/// non-empty range: an empty range (a point, e.g. from a node that error
/// recovery left empty) is widened to the character at that point, or the
/// one before it at the end of the file. Found by the `check` fuzz target.
fn widen_empty_ranges(diags: &mut [Diagnostic], map: &SourceMap) {
    let widen = |span: &mut pcl_diagnostics::Span| {
        if !span.range.is_empty() {
            return;
        }
        let Some(text) = map.get(span.file).map(|f| f.text()) else {
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
        for label in &mut d.related {
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
    let mut seen_packages: Vec<String> = Vec::new();
    diags.retain(|d| {
        if d.code != codes::UNKNOWN_PACKAGE {
            return true;
        }
        if seen_packages.contains(&d.summary) {
            return false;
        }
        seen_packages.push(d.summary.clone());
        true
    });
    diags
}
