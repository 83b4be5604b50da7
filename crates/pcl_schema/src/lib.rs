//! Pulumi package schemas for the pcl front end.
//!
//! This crate owns:
//! - the schema model ([`model`]): resources (inputs, outputs, the implicit
//!   `id`/`urn`, methods, aliases …), functions (inputs, object or scalar
//!   return types, multi-argument inputs), object and enum types, and
//!   property types with `$ref`s by token, unions with discriminators and
//!   explicit [`TypeProblem`]s for what the schema gets wrong;
//! - lazy loading ([`Package`]): the document is scanned once and each
//!   member is decoded on first lookup, so a few lookups in a 3 MB schema
//!   stay cheap; a `Package` is `Send + Sync`;
//! - token canonicalisation ([`token`]) and lookups of tokens as written in
//!   a program ([`Package::lookup_resource`], [`Package::lookup_function`],
//!   [`Package::lookup_type`]), plus did-you-mean helpers ([`suggest`]);
//! - loaders ([`SchemaLoader`], [`MemoryLoader`], [`DirLoader`],
//!   [`ChainLoader`], [`CachingLoader`]) and their typed [`LoadError`];
//! - the built-in `pulumi` package ([`builtin`]).
//!
//! It must not touch PCL types or syntax: mapping this model to
//! `pcl_types` is the binder's job (binder.md §6.2), and it never reads the
//! network or starts plugins.

pub mod builtin;
mod decode;
pub mod error;
pub mod loader;
pub mod model;
mod package;
mod skim;
mod spec;
pub mod suggest;
pub mod token;

pub use error::{DecodeError, LoadError, LookupError, ResolveError, Section};
pub use loader::{
    CachingLoader, ChainLoader, DirLoader, MemoryLoader, PackageDescriptor, Parameterization,
    SchemaLoader,
};
pub use model::{
    Alias, BaseProvider, Builtin, Config, DefaultInfo, Dependency, Discriminator, EnumType,
    EnumValue, Function, ImplicitOutput, Literal, ObjectType, PackageRef, Primitive, Property,
    RefKind, Resource, ReturnType, SchemaParameterization, SchemaProblem, SchemaType,
    SchemaTypeKind, TypeDef, TypeProblem, TypeRef, UnionType,
};
pub use package::{Found, Package, Resolved, ResolvedRef};
pub use token::{decompose, MalformedToken, ModuleFormat, Token};
