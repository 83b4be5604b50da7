//! Finding things in a bound program: the node or expression covering an
//! offset, the attributes and expressions of a node, range containment.
//! Expressions are walked through an explicit stack, never by recursion
//! in their depth.

use pcl_binder::{BoundAttribute, NodeKind, Program};
use pcl_diagnostics::FileId;
use pcl_expr::{BoundExprKind, BoundRef, BoundTree};

pub(crate) fn contains_range(
    outer: pcl_diagnostics::TextRange,
    inner: pcl_diagnostics::TextRange,
) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

pub(crate) fn contains(r: pcl_diagnostics::TextRange, offset: usize) -> bool {
    (r.start as usize) <= offset && offset <= r.end as usize
}

/// The node of `file` whose block covers `offset` (the smallest, should
/// blocks nest).
pub(crate) fn innermost_node(
    program: &Program,
    file: FileId,
    offset: usize,
) -> Option<&pcl_binder::Node> {
    program
        .nodes()
        .iter()
        .filter(|n| n.file() == file && contains(n.span.range, offset))
        .min_by_key(|n| n.span.range.len())
}

pub(crate) fn node_attributes(kind: &NodeKind) -> Vec<&BoundAttribute> {
    let mut out: Vec<&BoundAttribute> = Vec::new();
    match kind {
        NodeKind::Config(c) => out.extend(&c.attributes),
        NodeKind::Resource(r) => {
            out.extend(&r.inputs);
            out.extend(r.options.iter().flat_map(|o| &o.attributes));
        }
        NodeKind::Component(c) => {
            out.extend(&c.inputs);
            out.extend(c.options.iter().flat_map(|o| &o.attributes));
        }
        NodeKind::Pulumi(p) => out.extend(&p.attributes),
        NodeKind::Local(_) | NodeKind::Output(_) | NodeKind::Hook(_) => {}
    }
    out
}

/// Every top-level expression of a node.
fn node_exprs(kind: &NodeKind) -> Vec<&BoundTree> {
    let mut out: Vec<&BoundTree> = node_attributes(kind).iter().map(|a| &a.value).collect();
    match kind {
        NodeKind::Local(l) => out.extend(&l.value),
        NodeKind::Config(c) => out.extend(&c.default),
        NodeKind::Output(o) => out.extend(&o.value),
        NodeKind::Hook(h) => {
            out.extend(&h.command);
            out.extend(&h.on_dry_run);
            out.extend(&h.ignore_errors);
        }
        _ => {}
    }
    out
}

/// Calls `f` on every expression of `node`, through an explicit stack (no
/// recursion in the depth of an expression).
pub(crate) fn for_each_expr<'a>(node: &'a pcl_binder::Node, mut f: impl FnMut(BoundRef<'a>)) {
    let mut stack: Vec<BoundRef<'a>> = node_exprs(&node.kind)
        .into_iter()
        .map(BoundTree::root)
        .collect();
    while let Some(e) = stack.pop() {
        f(e);
        e.for_each_child(&mut |c| stack.push(c));
    }
}

/// The type and range of the smallest expression (or traversal step) of
/// `node` covering `offset`.
pub(crate) fn innermost_expr(
    node: &pcl_binder::Node,
    offset: usize,
) -> Option<(pcl_types::Type, pcl_diagnostics::TextRange)> {
    let mut best: Option<(&pcl_types::Type, pcl_diagnostics::TextRange)> = None;
    for_each_expr(node, |e| {
        let mut candidates = vec![(e.ty(), e.range())];
        let steps = match e.kind() {
            BoundExprKind::ScopeTraversal(t) => &t.steps[..],
            BoundExprKind::RelativeTraversal { steps, .. } => steps,
            _ => &[],
        };
        candidates.extend(steps.iter().map(|s| (&s.ty, s.range)));
        for (ty, r) in candidates {
            if contains(r, offset) && best.is_none_or(|(_, b)| r.len() <= b.len()) {
                best = Some((ty, r));
            }
        }
    });
    best.map(|(t, r)| (t.clone(), r))
}
