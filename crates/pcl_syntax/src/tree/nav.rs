//! Navigation for tools: a node's parent, the node at an offset, the
//! innermost expression at an offset.
//!
//! Parents are one table, built on first use by a single pass over the
//! expression arena (children always come before their parent). Lookups by
//! offset descend from the root through the children whose range contains
//! the offset: linear in the depth times the children of each level, never
//! in the size of the file.

use pcl_diagnostics::TextRange;

use super::*;

/// Any node of the tree.
#[derive(Clone, Copy, Debug)]
pub enum NodeRef<'t> {
    Body(BodyRef<'t>),
    Item(ItemRef<'t>),
    Label(LabelRef<'t>),
    Expr(ExprRef<'t>),
    Comment(CommentRef<'t>),
}

impl<'t> NodeRef<'t> {
    pub fn range(self) -> TextRange {
        match self {
            NodeRef::Body(b) => b.range(),
            NodeRef::Item(i) => i.range(),
            NodeRef::Label(l) => l.range(),
            NodeRef::Expr(e) => e.range(),
            NodeRef::Comment(c) => c.range(),
        }
    }
}

/// "No parent" in the parent table.
const NONE: u32 = u32::MAX;

/// Each expression's parent: a table for the stored nodes, a map for the
/// leaves (see `store.rs`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Parents {
    nodes: Vec<u32>,
    leaves: std::collections::HashMap<u32, u32>,
}

fn contains(range: TextRange, offset: u32) -> bool {
    range.start <= offset && offset < range.end.max(range.start + 1)
}

impl<'t> ExprRef<'t> {
    /// The expression this one is a direct child of; `None` for the
    /// expression of an attribute (or the root of an expression or
    /// template parse).
    pub fn parent(self) -> Option<ExprRef<'t>> {
        let src = self.src;
        let parents = src.tree.parents.get_or_init(|| {
            let count = src.tree.slots.len();
            let mut parents = Parents {
                nodes: vec![NONE; count],
                leaves: Default::default(),
            };
            for index in 0..count {
                let parent = ExprId(index as u32);
                src.expr(parent).for_each_child(|child| {
                    if child.id.0 & LEAF != 0 {
                        parents.leaves.insert(child.id.0, parent.0);
                    } else if let Some(slot) = parents.nodes.get_mut(child.id.index()) {
                        *slot = parent.0;
                    }
                });
            }
            parents
        });
        let parent = match self.id.0 & LEAF {
            0 => parents.nodes.get(self.id.index()),
            _ => parents.leaves.get(&self.id.0),
        };
        match parent {
            Some(&p) if p != NONE => Some(src.expr(ExprId(p))),
            _ => None,
        }
    }

    /// The innermost expression under this one (itself included) whose
    /// range contains `offset`.
    pub fn innermost_at(self, offset: u32) -> Option<ExprRef<'t>> {
        if !contains(self.range(), offset) {
            return None;
        }
        let mut here = self;
        loop {
            let mut next = None;
            here.for_each_child(|child| {
                if next.is_none()
                    && !matches!(child.kind(), ExprKind::SplatItem)
                    && contains(child.range(), offset)
                {
                    next = Some(child);
                }
            });
            match next {
                Some(child) => here = child,
                None => return Some(here),
            }
        }
    }
}

impl<'t> BodyRef<'t> {
    /// The innermost node whose range contains `offset`: a comment, a
    /// label, an expression, an item, or this body.
    pub fn node_at(self, offset: u32) -> NodeRef<'t> {
        let mut body = self;
        'bodies: loop {
            for comment in body.dangling_comments() {
                if contains(comment.range(), offset) {
                    return NodeRef::Comment(comment);
                }
            }
            for item in body.items() {
                for comment in item
                    .leading_comments()
                    .iter()
                    .chain(item.trailing_comments())
                {
                    if contains(comment.range(), offset) {
                        return NodeRef::Comment(comment);
                    }
                }
                if !contains(item.range(), offset) {
                    continue;
                }
                match item.kind() {
                    Item::Attribute(attr) => {
                        return match attr.expr().innermost_at(offset) {
                            Some(expr) => NodeRef::Expr(expr),
                            None => NodeRef::Item(item),
                        };
                    }
                    Item::Block(block) => {
                        for label in block.labels() {
                            if contains(label.range(), offset) {
                                return NodeRef::Label(label);
                            }
                        }
                        let inner = block.body();
                        if contains(inner.range(), offset) {
                            body = inner;
                            continue 'bodies;
                        }
                        return NodeRef::Item(item);
                    }
                }
            }
            return NodeRef::Body(body);
        }
    }

    /// The innermost expression whose range contains `offset`.
    pub fn expr_at(self, offset: u32) -> Option<ExprRef<'t>> {
        match self.node_at(offset) {
            NodeRef::Expr(expr) => Some(expr),
            _ => None,
        }
    }
}
