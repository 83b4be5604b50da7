//! Scopes and the typing of every PCL expression.
//!
//! This crate owns:
//! - [`Scope`] and [`Definition`]: name resolution with the defs / outputs /
//!   functions namespaces of binder.md §2;
//! - [`bind_expr`]: binding one syntax expression into a typed
//!   [`BoundTree`] (binder.md §3; the flat bound model and its views,
//!   [`BoundRef`], are in [`bound`]), with every builtin function of §4.1,
//!   `invoke` (§6.3) and `call` (§6.4);
//! - the [`Environment`] trait through which the program binder supplies
//!   node types, schema functions and resource methods (and may remember
//!   `InputType` answers for a whole check), and
//!   [`ExprOptions`], the expression-level bind options of §7;
//! - the expression-level diagnostics of §8.1–8.2 ([`codes`]);
//! - [`suggest`], the one "did you mean" mechanism every unknown name uses
//!   (here and in `pcl_binder`);
//! - [`fit`], which explains how a value does not fit its type key by key
//!   (one diagnostic per offending key or element, unknown nested keys with
//!   a did-you-mean fix), for arguments here and for property, input,
//!   config, output and option values in `pcl_binder`.
//!
//! It must not touch schemas, program blocks or files: whole programs are
//! the program binder's (`pcl_binder`), types are `pcl_types`', syntax is
//! `pcl_syntax`'s. Diagnostics are collected in the [`BindContext`]; binding
//! never fails.
//!
//! Recursion over expressions is bounded by [`MAX_EXPR_DEPTH`]; deeper
//! input is bound as an error expression with one `expression-too-deep`
//! diagnostic. Operator chains are bound without recursion.
//!
//! Reference defects fixed here (spec README table): the generic conversion
//! message has no trailing `: ` and names the first mismatching path
//! (`trailing-colon-space`, `union-reason-dropped`); `{(null) = …}` reports
//! `object keys must be strings` (`null-key-panic`); `c ? x : null` is
//! `optional(x)` (`const-null-not-optional`); a traversal ending in an
//! untyped definition never says `undefined variable ` with an empty name;
//! `entries()` without arguments and `lookup` on an empty object report
//! errors instead of crashing. The functions removed at HEAD (`mimeType`,
//! `readDir`, binder.md §4.2) are not defined: calling them reports
//! `unknown function`.

/// The unit tests count their allocations (`pcl_testkit`) instead of
/// timing their work.
#[cfg(test)]
#[global_allocator]
static ALLOC: pcl_testkit::CountingAlloc = pcl_testkit::CountingAlloc;

mod bind;
pub mod bound;
pub mod builtins;
mod call;
pub mod codes;
pub mod constant;
mod context;
pub mod env;
pub mod fit;
pub mod scope;
pub mod signature;
pub mod suggest;

pub use bind::{bind_expr, check_convertible};
pub use bound::{
    BoundCall, BoundExprKind, BoundFor, BoundId, BoundIter, BoundList, BoundPairs, BoundRef,
    BoundScopeTraversal, BoundStep, BoundStepKind, BoundTree, InvokeTokens, Unresolved,
};
pub use builtins::Builtin;
pub use context::BindContext;
pub use env::{
    EmptyEnvironment, Environment, ExprOptions, InvokeFunction, InvokeLookup, Method, MethodLookup,
    NodeMode, NodeReference, ResourceAnnotation,
};
pub use scope::{Definition, Function, NodeId, ResourceProperty, Scope, Variable};
pub use signature::{Param, Signature};

/// How deep [`bind_expr`] recurses into nested expressions before it gives
/// up with an `expression-too-deep` diagnostic. Above the parser's own
/// nesting limit (128), so only hand-built trees reach it. A left-leaning
/// operator chain (`1 + 1 + … + 1`) counts as one level however long it is:
/// it is bound iteratively, and a [`BoundTree`] is flat.
pub const MAX_EXPR_DEPTH: usize = 256;

#[cfg(test)]
mod tests;
