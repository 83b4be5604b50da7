//! STOP-GAP: every name this crate reaches beyond the `pcl` façade's
//! top-level re-exports, in one place, until the façade re-exports them
//! (issue #29 §1: `#[doc(inline)]` re-exports of the types a generator
//! matches on, `BoundScopeTraversal::root_type()`). Replace these paths
//! with `pcl::` names when they exist; nothing else in the crate names a
//! `pcl::<layer>::` path.

use pcl::{Definition, Program, Type};

pub(crate) use pcl::expr::bound::{BoundScopeTraversal, BoundStep, BoundStepKind};
pub(crate) use pcl::syntax::tree::UnaryOp;
pub(crate) use pcl::types::value::go_quote;
pub(crate) use pcl::types::Value;

/// The type of a traversal's root (the node's, or the variable's), which
/// decides `.key` against `["key"]` for its first step.
pub(crate) fn root_type(program: &Program, traversal: &BoundScopeTraversal) -> Option<Type> {
    match traversal.definition.as_ref()? {
        Definition::Node(id) => program.node(*id).map(|n| n.ty.clone()),
        Definition::Variable(v) => Some(v.ty.clone()),
        Definition::ResourceProperty(p) => Some(p.ty.clone()),
        Definition::Null | Definition::Keyword(_) => None,
    }
}
