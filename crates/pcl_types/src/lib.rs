//! The PCL type system: every type kind, the normalising constructors,
//! conversion (Safe / Unsafe / None) with explanations, assignability,
//! unification, traversal, the eventual (output/promise) helpers, the input /
//! output / plain shapes, the two printed forms, the message form of types
//! for diagnostics ([`message`]: expected and found types in the user's
//! terms, capped in length), the test-vector notation and config/output type
//! labels.
//!
//! # What this crate owns, and what it must not touch
//!
//! It owns PCL *types* and nothing else. It depends only on
//! `pcl_diagnostics` (for `Severity`, `Code` and `TextRange`); it must not
//! know about syntax trees, schemas, scopes or files. Diagnostics are
//! returned as data ([`TypeDiagnostic`]) and the binder attaches spans.
//! Type labels (`config x "list(string)"`) are parsed by a small expression
//! reader in [`label`] so that this crate stays independent of the parser.
//! Binders share literal values, their const types and names between
//! repeats through [`LiteralTypes`] (names as one-word [`Name`]s).
//!
//! # Representation and recursion
//!
//! A [`Type`] is an `Arc` of a node (its [`TypeKind`] and its group, see
//! below): cheap to clone, hashable, compared structurally. Object types
//! are the only nominal-ish part: a `TypeKind::Object` holds an
//! `Arc<ObjectDef>` whose property map is set at construction or exactly
//! once later ([`Type::deferred_object`] + [`Type::define_object`]). A
//! recursive schema type (a property mentioning its own object) is
//! therefore a *finite cyclic graph* of definitions, never an infinite tree
//! — the binder creates the placeholder for a schema token, caches it,
//! converts the properties (which find the cached placeholder), then
//! defines it, exactly like the reference's per-schema-type cache.
//!
//! An object may also be *lazy* ([`Type::lazy_object`]): its properties
//! are computed by a definer on first use, which is how the binder converts
//! only the parts of a big schema a program looks at. Every reader goes
//! through [`ObjectDef::properties`], so laziness does not show, except
//! that `ResolveOutputs` / `ResolvePromises` of a lazy object are lazy
//! views of it (equal to, but not the same node as, the object when it
//! holds no eventuals). See [`object`] for the forcing rules (never
//! blocking, never re-entering).
//!
//! Why not an arena of ids? An arena would need a context argument on every
//! operation (equality, printing, conversion) and a lifetime story for types
//! that outlive one bind; handles with identity give the same cycle-breaking
//! points (every walk keys its seen-set by the object's address) with none of
//! the plumbing. A recursive type is then a cycle of `Arc`s, which reference
//! counting alone never frees; [`group`] frees it: nodes belong to groups
//! that count the handles held from outside them, and a group nothing
//! outside reaches takes its objects' late-set properties out, which breaks
//! every cycle. Holding any part of a recursive type keeps all of it alive.
//! This is why [`ObjectDef::properties`] hands out a shared [`Props`]
//! rather than a reference. A host that builds recursive types over time
//! (the binder's schema converter) puts them in one [`TypeGroup`].
//!
//! Every walk over types carries a seen-set for objects and stops at
//! [`MAX_TYPE_DEPTH`] with a fallback (printing `…`, `Unsafe` for a
//! conversion it cannot decide, a `type-too-deep` diagnostic for traversal),
//! so no input can overflow the stack. Conversion and unification memoise
//! per question, keyed by `(dest, src, mode)`, which keeps wide and deep
//! unions polynomial (see [`conversion`]); a host asking many questions
//! about the same types (the program binder) keeps [`conversion_from`]'s
//! answers across them while a [`ConversionMemo`] is alive.
//!
//! # Reference defects
//!
//! The rules follow `types.md`. Where the reference has a defect this crate
//! fixes it (memo cache keyed by source only, tuple index off-by-one,
//! inverted enum const rule, dropped union conversion reasons, trailing
//! `: ` in messages, memory addresses and stale strings in `String()`); the
//! harness's `testdata/types/deviations.tsv` lists every vector row that
//! differs because of such a fix.

pub mod conversion;
pub mod error;
pub mod eventual;
pub mod explain;
pub mod fast_hash;
pub mod group;
pub mod label;
pub mod literal;
pub mod message;
pub mod name;
mod node;
pub mod notation;
pub mod object;
pub mod operators;
pub mod pretty;
pub mod print;
pub mod shape;
pub mod traverse;
pub mod ty;
pub mod unify;
pub mod union;
pub mod value;

/// How deep any recursive walk over a type may go before it falls back.
pub const MAX_TYPE_DEPTH: usize = 128;

pub use conversion::{
    assignable_from, conversion_from, remember_conversions, ConversionKind, ConversionMemo,
};
pub use error::{codes, TypeDiagnostic};
pub use eventual::{
    collection_types, contains_eventuals, contains_outputs, contains_promises, eventual_of,
    input_type, is_const_type, is_optional, lift_operation_type, resolve_outputs, resolve_promises,
    unwrap_iterable_source_type, unwrap_option, wrap_iterable_result_type, CollectionTypes,
    InputTypeMemo, Lift,
};
pub use explain::{
    explain_conversion, expr_not_convertible, ConversionError, MismatchReason, PathSegment,
};
pub use fast_hash::{FastHasher, FastMap};
pub use group::TypeGroup;
pub use label::{bind_type_label, LabelResult};
pub use literal::LiteralTypes;
pub use message::{expected_text, found_text, MAX_TYPE_CHARS};
pub use name::Name;
pub use notation::{parse_type, to_notation, NotationError};
pub use object::{Annotation, Annotations, Definer, ObjectDef, ObjectOptions, Properties, Props};
pub use pretty::{pretty, pretty_capped, pretty_width, PrettyOptions};
pub use print::display_string;
pub use shape::{input_shape, output_shape, plain_shape};
pub use traverse::{traverse, Traversal, Traverser};
pub use ty::{ConstType, EnumError, EnumType, Type, TypeKind, UnionType, WeakType};
pub use unify::{unify, unify_types, unify_types_safe, unify_types_unsafe, Unified};
pub use value::{Number, Value};
