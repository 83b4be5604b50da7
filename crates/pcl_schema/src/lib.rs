//! Pulumi package schemas for the pcl front end.
//!
//! This crate owns:
//! - the schema model ([`model`]): resources (inputs, outputs, the implicit
//!   `id`/`urn`, methods, aliases …), functions (inputs, object or scalar
//!   return types, multi-argument inputs), object and enum types, and
//!   property types with `$ref`s by token, unions with discriminators and
//!   explicit [`TypeProblem`]s for what the schema gets wrong;
//! - lazy loading ([`Package`]): the document's members are located
//!   without reading most of it and each member is decoded on first
//!   lookup, so a few lookups in a 3 MB schema cost less than 3× reading
//!   the file; a `Package` is `Send + Sync`;
//! - token canonicalisation ([`token`]) and lookups of tokens as written in
//!   a program ([`Package::lookup_resource`], [`Package::lookup_function`],
//!   [`Package::lookup_type`]), plus did-you-mean helpers ([`suggest`]);
//! - loaders ([`SchemaLoader`], [`MemoryLoader`], [`DirLoader`],
//!   [`ChainLoader`], [`CachingLoader`]) and their typed [`LoadError`];
//! - the built-in `pulumi` package ([`builtin`]).
//!
//! # Malformed schemas
//!
//! A pretty-printed document (one member per line, consistent space
//! indentation: what every Pulumi tool writes) is skimmed by its layout:
//! load reads only the key lines of the top level; a lookup of an exact
//! token in `resources`, `functions` or `types` finds its entry by a binary
//! search over the section's bytes (Pulumi writes sorted keys), reading a
//! few key lines, and any other use (a miss, a canonicalised lookup, a
//! listing) splits the section by its key lines once. Any other document is validated
//! whole at load, as before. For a layout-skimmed document:
//! - load fails with [`LoadError::Malformed`] (with line and column) for
//!   a broken layout that the full serde pass then rejects (truncation,
//!   unbalanced braces, invalid UTF-8 outside the members below …), or
//!   malformed JSON or invalid UTF-8 in any top-level member other than
//!   `provider`, `config`, `language`, `resources`, `functions` and
//!   `types`;
//! - malformed JSON or invalid UTF-8 inside one of those is reported when
//!   it is touched: decoding a member checks that its text is UTF-8 and
//!   exactly one JSON value (else a [`DecodeError`] with line and column),
//!   and [`Package::language_json`] returns `None` for an invalid
//!   `language` (the document's bytes are not all validated at load: that
//!   would cost half as much again as reading them);
//! - a lookup that finds nothing validates the whole document first (once)
//!   and fails with [`LookupError::Decode`] if it is malformed, so "not
//!   found" is always true of the real document; [`Package::decode_all`]
//!   does the same and so remains a complete validator (it also reports a
//!   layout that disagrees with the structure);
//! - a member whose layout range does not decode is re-located by the full
//!   serde pass before its error is reported.
//!
//! Malformed input never panics. The one thing not checked eagerly is that
//! a well-formed document's indentation is honest: a document that is
//! valid JSON but indents a nested key exactly like a member (with the
//! member separators around it) lists a phantom member, which lookups find,
//! until the document is validated. No local check rules this out (only
//! reading every byte of the values before the key does, which is the cost
//! the layout skim exists to avoid). Validation happens on the first miss,
//! on the first member whose range does not decode (the member that really
//! holds the phantom key is one) and in `decode_all`; from then on the
//! package lists and finds exactly the document's members. The test
//! `dishonest_indentation_is_corrected_once_validated` pins this. What
//! [`Package::member_refs`] reads is never cut short by such a lie: it
//! follows the member's JSON structure and, when the layout's range is
//! not exactly one object, reads the range decoding falls back to
//! (`member_refs_are_found_whatever_the_indentation`).
//!
//! It must not touch PCL types or syntax: mapping this model to
//! `pcl_types` is the binder's job (binder.md §6.2), and it never reads the
//! network or starts plugins.

pub mod builtin;
mod decode;
pub mod error;
mod layout;
pub mod loader;
pub mod model;
mod package;
mod skim;
mod spec;
pub mod suggest;
pub mod token;

pub use error::{DecodeError, LoadError, LookupError, ResolveError, Section};
pub use loader::{
    pulumi_schema_cache_dir, CachingLoader, ChainLoader, DirLoader, MemoryLoader,
    PackageDescriptor, Parameterization, SchemaLoader, MAX_SCHEMA_BYTES,
};
pub use model::{
    Alias, BaseProvider, Builtin, Config, DefaultInfo, Dependency, Discriminator, EnumType,
    EnumValue, Function, ImplicitOutput, Literal, ObjectType, PackageRef, Primitive, Property,
    RefKind, Resource, ReturnType, SchemaParameterization, SchemaProblem, SchemaType,
    SchemaTypeKind, TypeDef, TypeProblem, TypeRef, UnionType,
};
pub use package::{Found, Package, Resolved, ResolvedRef};
pub use token::{decompose, MalformedToken, ModuleFormat, Token};
