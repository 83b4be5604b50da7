//! The bound (typed) expression model (binder.md §3): a [`BoundTree`] per
//! bound expression (one per attribute value), read through borrowing
//! views ([`BoundRef`], [`BoundExprKind`]).
//!
//! A tree is one `Vec` of 20-byte nodes, each its type (an index into the
//! tree's table of the types its nodes have, which repeat: a chain of
//! `+` has two), the byte range of the syntax it came from (in the file of
//! the [`crate::BindContext`] that bound it) and eight bytes of kind: a
//! tag, an operator byte and a `u32` payload. Nodes are stored in
//! post-order: a node is pushed after its children, so its last child is
//! the node just before it and need not be stored (a binary operation's
//! payload is its left operand, its right one is `id - 1`; a unary
//! operation, parentheses and a template join find their operand at
//! `id - 1`). Kinds with more children or with data keep
//! a payload index into side vectors of the tree: child lists in one
//! `Vec<u32>` (each list its length, then its ids), and a for
//! expression's variables, a call's name and signature, a name
//! reference's root and steps, a relative traversal's steps in `Vec`s of
//! their own. A literal's value is the value of its const type, so it is
//! not stored twice. No node is allocated on its own: `1+1+…` costs two
//! nodes (40 bytes) per `+1`, and a tree of `Vec`s clones, compares and
//! drops without recursion however deep the expression is.
//!
//! Everything that walks a whole tree ([`BoundRef::node_references`],
//! [`BoundRef::called_functions`]) does it with a heap stack. Ids come
//! from the binder, never from input text; a view of an id outside the
//! tree reads as an error node rather than panicking.

use std::sync::{Arc, OnceLock};

use pcl_diagnostics::TextRange;
use pcl_syntax::tree::{BinaryOp, UnaryOp};
use pcl_types::{Name, Type, Value};

use crate::scope::{Definition, Function};
use crate::signature::Signature;

mod view;
pub use view::{BoundCall, BoundExprKind, BoundFor, BoundIter, BoundList, BoundPairs, BoundRef};

/// A node's index in its [`BoundTree`].
pub type BoundId = u32;

/// One traversal step after binding.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundStep {
    pub kind: BoundStepKind,
    /// The type after this step.
    pub ty: Type,
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BoundStepKind {
    /// `.name` (shared by the steps that repeat it)
    Attr(Arc<str>),
    /// `[literal]` or `.0`
    Index(Value),
}

/// A traversal from a name in scope: `name.a[0]…`.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundScopeTraversal {
    /// The name (shared by the references that repeat it).
    pub root: Name,
    pub root_range: TextRange,
    /// What the name resolved to; `None` when it is undefined.
    pub definition: Option<Definition>,
    pub steps: Vec<BoundStep>,
}

/// What a node is; the payload's meaning depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Tag {
    /// The value is the const type's.
    Literal,
    /// payload: a child list.
    Template,
    /// operand: `id - 1`.
    TemplateJoin,
    /// op: the operator; operand: `id - 1`.
    Unary,
    /// op: the operator; payload: lhs; rhs: `id - 1`.
    Binary,
    /// payload: a list of condition and then; else: `id - 1`.
    Conditional,
    /// payload: index into `fors`.
    For,
    /// payload: source; each: `id - 1`.
    Splat,
    SplatItem,
    /// payload: index into `calls`.
    Call,
    /// payload: collection; key: `id - 1`.
    Index,
    /// payload: a child list of keys and values, alternating.
    Object,
    /// payload: a child list.
    Tuple,
    /// payload: index into `traversals`.
    ScopeTraversal,
    /// payload: index into `steps`; source: `id - 1`.
    RelativeTraversal,
    /// inner: `id - 1`.
    Parens,
    Error,
}

/// One node: 20 bytes (see the `sizes` test).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Node {
    /// Index into the tree's `types`.
    pub(crate) ty: u32,
    pub(crate) range: TextRange,
    pub(crate) tag: Tag,
    pub(crate) op: u8,
    pub(crate) payload: u32,
}

/// A for expression's data besides its type and range.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ForData {
    pub(crate) key_var: Option<String>,
    pub(crate) value_var: String,
    pub(crate) collection: BoundId,
    pub(crate) key: Option<BoundId>,
    pub(crate) value: BoundId,
    pub(crate) condition: Option<BoundId>,
    pub(crate) grouping: bool,
}

/// A call's data besides its type and range.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CallData {
    pub(crate) name: String,
    pub(crate) name_range: TextRange,
    pub(crate) function: Option<Function>,
    /// A child list.
    pub(crate) args: u32,
    pub(crate) expand_final: bool,
    pub(crate) signature: Signature,
    pub(crate) invoke_token: Option<String>,
}

/// One bound expression: its nodes in post-order (the root is the last),
/// the types they have (each distinct type once, as far as the last few
/// pushed show; the first two inline, as most trees have at most two: a
/// string's template and its literal part) and their side
/// data (see the module docs): child lists and name references beside
/// the nodes, the rarer for expressions, calls and relative steps in a
/// box allocated on first use.
///
/// `PartialEq` compares the stored representation: a clone is equal to
/// its tree.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoundTree {
    pub(crate) nodes: Vec<Node>,
    /// The types of index 0 and 1.
    pub(crate) first_types: [Option<Type>; 2],
    /// The types of index 2 on.
    pub(crate) types: Vec<Type>,
    /// Child lists, each its length, then its ids.
    pub(crate) lists: Vec<u32>,
    pub(crate) traversals: Vec<BoundScopeTraversal>,
    pub(crate) rare: Option<Box<Rare>>,
}

/// The data of the kinds most trees do not have.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Rare {
    pub(crate) fors: Vec<ForData>,
    pub(crate) calls: Vec<CallData>,
    pub(crate) steps: Vec<Box<[BoundStep]>>,
}

impl Rare {
    fn is_empty(&self) -> bool {
        self.fors.is_empty() && self.calls.is_empty() && self.steps.is_empty()
    }

    /// The contents in vectors of exactly their size; `self` keeps its
    /// capacity.
    fn take_exact(&mut self) -> Rare {
        Rare {
            fors: take_vec(&mut self.fors),
            calls: take_vec(&mut self.calls),
            steps: take_vec(&mut self.steps),
        }
    }
}

/// `v`'s elements moved into a vector of exactly their number (none
/// allocated for none); `v` is left empty with its capacity.
fn take_vec<T>(v: &mut Vec<T>) -> Vec<T> {
    if v.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(v.len());
    out.append(v);
    out
}

/// Trees up to this many nodes are copied out of the binder's scratch
/// tree ([`BoundTree::take_exact`]); larger ones are moved.
const COPY_LIMIT: usize = 1024;

/// What a view of an id outside its tree reads.
const MISSING_NODE: Node = Node {
    ty: u32::MAX,
    range: TextRange { start: 0, end: 0 },
    tag: Tag::Error,
    op: 0,
    payload: 0,
};

/// The type of a node whose type index is outside its tree.
fn missing_type() -> &'static Type {
    static TYPE: OnceLock<Type> = OnceLock::new();
    TYPE.get_or_init(Type::dynamic)
}

/// How many of the types pushed last [`BoundTree::intern`] looks through
/// for the one it is given (so a push costs a bounded number of pointer
/// comparisons).
const RECENT_TYPES: usize = 8;

pub(crate) fn binary_op(byte: u8) -> BinaryOp {
    BinaryOp::ALL
        .get(usize::from(byte))
        .copied()
        .unwrap_or(BinaryOp::Add)
}

pub(crate) fn unary_op(byte: u8) -> UnaryOp {
    match byte {
        0 => UnaryOp::Negate,
        _ => UnaryOp::Not,
    }
}

impl BoundTree {
    /// An empty tree (the binder fills it; a bound tree is never empty).
    pub fn new() -> BoundTree {
        BoundTree::default()
    }

    /// The root expression (the last node).
    pub fn root(&self) -> BoundRef<'_> {
        self.get(self.nodes.len().saturating_sub(1) as BoundId)
    }

    /// A view of one node.
    pub fn get(&self, id: BoundId) -> BoundRef<'_> {
        BoundRef::new(self, id)
    }

    /// How many nodes the tree holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    // ---- shortcuts to the root's view ------------------------------------------------

    /// The root's type.
    pub fn ty(&self) -> &Type {
        self.root().ty()
    }

    /// The root's range.
    pub fn range(&self) -> TextRange {
        self.root().range()
    }

    /// The root's kind.
    pub fn kind(&self) -> BoundExprKind<'_> {
        self.root().kind()
    }

    /// The root with parentheses unwrapped.
    pub fn strip_parens(&self) -> BoundRef<'_> {
        self.root().strip_parens()
    }

    /// The root's kind name ([`BoundRef::kind_name`]).
    pub fn kind_name(&self) -> &'static str {
        self.root().kind_name()
    }

    /// [`BoundRef::node_references`] of the root.
    pub fn node_references(&self) -> Vec<crate::scope::NodeId> {
        self.root().node_references()
    }

    /// [`BoundRef::called_functions`] of the root.
    pub fn called_functions(&self) -> Vec<&str> {
        self.root().called_functions()
    }

    /// [`BoundRef::literal_string`] of the root.
    pub fn literal_string(&self) -> Option<&str> {
        self.root().literal_string()
    }

    pub(crate) fn node(&self, id: BoundId) -> &Node {
        self.nodes.get(id as usize).unwrap_or(&MISSING_NODE)
    }

    pub(crate) fn node_type(&self, node: &Node) -> &Type {
        let ty = match node.ty {
            0 => self.first_types[0].as_ref(),
            1 => self.first_types[1].as_ref(),
            i => self.types.get(i as usize - 2),
        };
        ty.unwrap_or_else(|| missing_type())
    }

    pub(crate) fn rare(&self) -> Option<&Rare> {
        self.rare.as_deref()
    }

    fn rare_mut(&mut self) -> &mut Rare {
        self.rare.get_or_insert_with(Box::default)
    }

    pub(crate) fn list(&self, at: u32) -> &[u32] {
        let at = at as usize;
        let len = self.lists.get(at).copied().unwrap_or(0) as usize;
        self.lists.get(at + 1..at + 1 + len).unwrap_or_default()
    }

    /// The tree built in `self`, a scratch tree that the binder reuses,
    /// in vectors of exactly its size: a small tree is copied out (one
    /// allocation per vector it uses, none for growing them) and `self`
    /// is left empty with its capacity; a large one is moved out and
    /// shrunk, so the scratch never holds more than a small tree's room.
    pub(crate) fn take_exact(&mut self) -> BoundTree {
        if self.nodes.len() > COPY_LIMIT || self.lists.len() > 2 * COPY_LIMIT {
            let mut out = std::mem::take(self);
            out.nodes.shrink_to_fit();
            out.types.shrink_to_fit();
            out.lists.shrink_to_fit();
            out.traversals.shrink_to_fit();
            return out;
        }
        let rare = match self.rare.as_deref_mut() {
            Some(r) if !r.is_empty() => Some(Box::new(r.take_exact())),
            _ => None,
        };
        BoundTree {
            nodes: take_vec(&mut self.nodes),
            first_types: [self.first_types[0].take(), self.first_types[1].take()],
            types: take_vec(&mut self.types),
            lists: take_vec(&mut self.lists),
            traversals: take_vec(&mut self.traversals),
            rare,
        }
    }

    /// The index of `ty` in `types`: one of the last few pushed when it is
    /// the same type, else a new entry.
    fn intern(&mut self, ty: Type) -> u32 {
        for (i, slot) in self.first_types.iter_mut().enumerate() {
            match slot {
                None => {
                    *slot = Some(ty);
                    return i as u32;
                }
                Some(t) if t.ptr_eq(&ty) => return i as u32,
                Some(_) => {}
            }
        }
        let len = self.types.len();
        let mut recent = self.types.iter().rev().take(RECENT_TYPES);
        if let Some(back) = recent.position(|t| t.ptr_eq(&ty)) {
            return (len - back) as u32 + 1;
        }
        self.types.push(ty);
        len as u32 + 2
    }

    // ---- building (post-order) -------------------------------------------------------

    /// The id the next pushed node gets.
    pub(crate) fn next_id(&self) -> BoundId {
        self.nodes.len() as BoundId
    }

    /// The type of a node already pushed.
    pub(crate) fn ty_of(&self, id: BoundId) -> &Type {
        self.node_type(self.node(id))
    }

    /// The range of a node already pushed.
    pub(crate) fn range_of(&self, id: BoundId) -> TextRange {
        self.node(id).range
    }

    pub(crate) fn set_range(&mut self, id: BoundId, range: TextRange) {
        if let Some(n) = self.nodes.get_mut(id as usize) {
            n.range = range;
        }
    }

    fn push(&mut self, tag: Tag, op: u8, payload: u32, ty: Type, range: TextRange) -> BoundId {
        let id = self.next_id();
        let ty = self.intern(ty);
        self.nodes.push(Node {
            ty,
            range,
            tag,
            op,
            payload,
        });
        id
    }

    /// Checks (in debug builds) that `child` is the node just pushed, the
    /// one a node's implicit last child is.
    fn last_child(&self, child: BoundId) {
        debug_assert_eq!(child + 1, self.next_id(), "post-order violated");
    }

    fn push_list(&mut self, ids: impl ExactSizeIterator<Item = BoundId>) -> u32 {
        let lists = &mut self.lists;
        let at = lists.len() as u32;
        lists.push(ids.len() as u32);
        lists.extend(ids);
        at
    }

    /// A literal; `ty` is its const type, which holds the value.
    pub(crate) fn literal(&mut self, ty: Type, range: TextRange) -> BoundId {
        debug_assert!(ty.as_const().is_some(), "a literal's type is const");
        self.push(Tag::Literal, 0, 0, ty, range)
    }

    /// Removes a literal just pushed (a folded `-<number>` replaces its
    /// operand).
    pub(crate) fn pop_literal(&mut self, id: BoundId) {
        if id + 1 == self.next_id() && self.node(id).tag == Tag::Literal {
            self.nodes.pop();
        }
    }

    pub(crate) fn error(&mut self, range: TextRange) -> BoundId {
        self.push(Tag::Error, 0, 0, Type::dynamic(), range)
    }

    pub(crate) fn splat_item(&mut self, ty: Type, range: TextRange) -> BoundId {
        self.push(Tag::SplatItem, 0, 0, ty, range)
    }

    pub(crate) fn template(&mut self, parts: &[BoundId], ty: Type, range: TextRange) -> BoundId {
        let at = self.push_list(parts.iter().copied());
        self.push(Tag::Template, 0, at, ty, range)
    }

    pub(crate) fn tuple(&mut self, items: &[BoundId], ty: Type, range: TextRange) -> BoundId {
        let at = self.push_list(items.iter().copied());
        self.push(Tag::Tuple, 0, at, ty, range)
    }

    /// `pairs` holds keys and values alternating.
    pub(crate) fn object(&mut self, pairs: &[BoundId], ty: Type, range: TextRange) -> BoundId {
        let at = self.push_list(pairs.iter().copied());
        self.push(Tag::Object, 0, at, ty, range)
    }

    pub(crate) fn template_join(&mut self, inner: BoundId, ty: Type, range: TextRange) -> BoundId {
        self.last_child(inner);
        self.push(Tag::TemplateJoin, 0, 0, ty, range)
    }

    pub(crate) fn parens(&mut self, inner: BoundId, ty: Type, range: TextRange) -> BoundId {
        self.last_child(inner);
        self.push(Tag::Parens, 0, 0, ty, range)
    }

    pub(crate) fn unary(
        &mut self,
        op: UnaryOp,
        operand: BoundId,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(operand);
        let op = match op {
            UnaryOp::Negate => 0,
            UnaryOp::Not => 1,
        };
        self.push(Tag::Unary, op, 0, ty, range)
    }

    pub(crate) fn binary(
        &mut self,
        op: BinaryOp,
        lhs: BoundId,
        rhs: BoundId,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(rhs);
        self.push(Tag::Binary, op as u8, lhs, ty, range)
    }

    pub(crate) fn conditional(
        &mut self,
        [condition, then_expr, else_expr]: [BoundId; 3],
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(else_expr);
        let at = self.push_list([condition, then_expr].into_iter());
        self.push(Tag::Conditional, 0, at, ty, range)
    }

    pub(crate) fn splat(
        &mut self,
        source: BoundId,
        each: BoundId,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(each);
        self.push(Tag::Splat, 0, source, ty, range)
    }

    pub(crate) fn index(
        &mut self,
        collection: BoundId,
        key: BoundId,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(key);
        self.push(Tag::Index, 0, collection, ty, range)
    }

    pub(crate) fn for_expr(&mut self, data: ForData, ty: Type, range: TextRange) -> BoundId {
        let fors = &mut self.rare_mut().fors;
        let at = fors.len() as u32;
        fors.push(data);
        self.push(Tag::For, 0, at, ty, range)
    }

    /// A call; `args` are its bound arguments.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn call(
        &mut self,
        name: &str,
        name_range: TextRange,
        function: Option<Function>,
        args: &[BoundId],
        expand_final: bool,
        signature: Signature,
        invoke_token: Option<String>,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        let args = self.push_list(args.iter().copied());
        let calls = &mut self.rare_mut().calls;
        let at = calls.len() as u32;
        calls.push(CallData {
            name: name.to_string(),
            name_range,
            function,
            args,
            expand_final,
            signature,
            invoke_token,
        });
        self.push(Tag::Call, 0, at, ty, range)
    }

    pub(crate) fn scope_traversal(
        &mut self,
        traversal: BoundScopeTraversal,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        let traversals = &mut self.traversals;
        let at = traversals.len() as u32;
        traversals.push(traversal);
        self.push(Tag::ScopeTraversal, 0, at, ty, range)
    }

    pub(crate) fn relative_traversal(
        &mut self,
        source: BoundId,
        steps: Box<[BoundStep]>,
        ty: Type,
        range: TextRange,
    ) -> BoundId {
        self.last_child(source);
        let all = &mut self.rare_mut().steps;
        let at = all.len() as u32;
        all.push(steps);
        self.push(Tag::RelativeTraversal, 0, at, ty, range)
    }
}

#[cfg(test)]
mod tests;
