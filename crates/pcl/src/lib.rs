//! pcl: a front end for PCL, the Pulumi Configuration Language, as a
//! library for code generators and other tools.
//!
//! This crate only re-exports; the work is done in six layers, each a crate
//! that depends only on the layers above it:
//!
//! | layer | crate | owns |
//! |---|---|---|
//! | sources | [`diagnostics`] (`pcl_diagnostics`) | files, byte spans, line/column positions, [`Diagnostic`], ariadne rendering |
//! | syntax | [`syntax`] (`pcl_syntax`) | the lossless lexer and parser, the syntax tree, comments |
//! | types | [`types`] (`pcl_types`) | the PCL type algebra: [`Type`], conversion, unification, traversal, printing |
//! | schemas | [`schema`] (`pcl_schema`) | Pulumi package schemas and their loaders ([`DirLoader`], [`MemoryLoader`], …) |
//! | expressions | [`expr`] (`pcl_expr`) | scopes and the typing of every expression into a [`BoundTree`] (flat, read through [`BoundRef`] views) |
//! | programs | [`binder`] (`pcl_binder`) | whole programs: blocks, dependency order, resources and components checked against schemas, the bound [`Program`] |
//!
//! Beside them, [`fmt`] (`pcl_fmt`, built on the syntax layer only) is
//! `pcl fmt`'s formatter: [`fmt::format`] a file, [`fmt::format_range`]
//! part of one.
//!
//! The usual entry points are [`check_program`] (sources in memory),
//! [`check_program_with_files`] (components read through a
//! [`FileProvider`]) and [`check_directory`] (a program on disk);
//! [`check_program_cached`] checks many programs against one
//! [`SchemaCache`] (packages loaded and schema types converted once). They never
//! fail: they return a [`Checked`] holding the bound [`Program`], every
//! source read and the diagnostics found, sorted. Strictness is one
//! [`BindPolicy`]. A code generator walks [`Program::ordered_nodes`]
//! (dependencies first); each [`Node`] has a [`NodeKind`] with typed
//! [`BoundTree`]s (read through [`BoundRef`] views and their
//! [`BoundExprKind`]) whose references name other nodes by [`NodeId`].
//!
//! # Example
//!
//! Check a program against a schema held in memory and walk the result:
//!
//! ```
//! use pcl::{check_program, BindPolicy, BoundExprKind, MemoryLoader, NodeKind};
//!
//! let schema = r#"{
//!   "name": "shop",
//!   "version": "1.0.0",
//!   "resources": {
//!     "shop:index:Store": {
//!       "inputProperties": { "name": { "type": "string" } },
//!       "requiredInputs": ["name"],
//!       "properties": { "url": { "type": "string" } },
//!       "required": ["url"]
//!     }
//!   }
//! }"#;
//! let loader = MemoryLoader::new().with(schema).expect("a valid schema");
//! let program = r#"
//! config storeName string {
//!   default = "corner"
//! }
//!
//! resource store "shop:index:Store" {
//!   name = "${storeName}-shop"
//! }
//!
//! output url {
//!   value = store.url
//! }
//! "#;
//! let sources = vec![("main.pp".to_string(), program.to_string())];
//! let checked = check_program(&sources, &loader, &BindPolicy::strict());
//! assert!(!checked.has_errors(), "{:?}", checked.diagnostics());
//!
//! let mut seen = Vec::new();
//! for node in checked.value().ordered_nodes() {
//!     match &node.kind {
//!         NodeKind::Config(config) => {
//!             assert_eq!(config.type_label.as_deref(), Some("string"));
//!         }
//!         NodeKind::Resource(resource) => {
//!             assert_eq!(resource.written_token, "shop:index:Store");
//!             let name = &resource.inputs[0];
//!             assert_eq!(name.name, "name");
//!             assert!(matches!(name.value.kind(), BoundExprKind::Template(_)));
//!         }
//!         NodeKind::Output(output) => {
//!             let value = output.value.as_ref().expect("an output value");
//!             assert_eq!(value.ty().to_string(), "output(string)");
//!         }
//!         _ => {}
//!     }
//!     seen.push(format!("{} {}: {}", node.kind_name(), node.name, node.ty));
//! }
//! assert_eq!(seen.len(), 3);
//! assert!(seen[0].starts_with("config storeName"));
//! assert!(seen[2].starts_with("output url"));
//! ```
//!
//! Diagnostics render through [`render`] (ariadne, with source excerpts) or
//! [`render_short`] (`path:line:col: severity[code]: message`), given the
//! [`Checked::sources`].

pub use pcl_binder as binder;
pub use pcl_diagnostics as diagnostics;
pub use pcl_expr as expr;
pub use pcl_fmt as fmt;
pub use pcl_schema as schema;
pub use pcl_syntax as syntax;
pub use pcl_types as types;

pub use pcl_binder::{
    check_directory, check_program, check_program_cached, check_program_with_files, BindPolicy,
    BoundAttribute, Checked, ComponentNode, ConfigNode, FileProvider, FsFiles, HookKind, HookNode,
    LocalNode, MemoryFiles, NoFiles, Node, NodeKind, OutputNode, PackageUse, Program, ProgramFile,
    PulumiNode, RangeKind, ResourceNode, ResourceOptions, SchemaCache, SchemaResourceRef,
};
pub use pcl_diagnostics::{
    render, render_all, render_short, Code, Diagnostic, FileId, Label, Position, RenderOptions,
    Severity, SourceFile, SourceMap, Span, TextRange,
};
pub use pcl_expr::{BoundExprKind, BoundRef, BoundTree, Definition, NodeId};
pub use pcl_schema::{
    CachingLoader, ChainLoader, DirLoader, LoadError, MemoryLoader, Package, PackageDescriptor,
    SchemaLoader,
};
pub use pcl_syntax::parse;
pub use pcl_types::{ConversionKind, Type, TypeKind};

/// The repository README, compiled so that its Rust examples stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The library guide, `docs/library.md`, compiled so that its Rust example
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
pub struct LibraryGuideDoctests;
