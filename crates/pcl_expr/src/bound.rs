//! The bound (typed) expression model (binder.md §3): a [`BoundTree`] per
//! bound expression (one per attribute value), read through borrowing
//! views ([`BoundRef`], [`BoundExprKind`]).
//!
//! # Nodes
//!
//! A tree is a sequence of 20-byte nodes, each its type (an index into the
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
//! # Small trees are stored inline
//!
//! Every top-level definition and every attribute of a program holds a
//! tree, and most of those trees are tiny: of the 1,275 trees of the
//! corpus programs (`../shared/corpus`), a fifth are one literal, a
//! quarter one name reference (`x`, `x.a.b`) and a sixth a plain string
//! (a template of one literal part, two nodes). A tree that held its vectors inline cost 120 bytes of struct
//! plus a heap block per vector used: a local `a1 = 1` paid 120 bytes of
//! struct and a 32-byte block for its one node, more than the source text
//! many times over (#18 finding 7).
//!
//! So a [`BoundTree`] is a 40-byte enum (see the `sizes` test) that
//! stores the common small shapes in place, each node as its type, its
//! range and its tag (the payload of an inline node is implied by the
//! shape), and everything else in one box:
//! - *one node* with no side data (a literal, an error, an empty tuple,
//!   object or template): nothing on the heap beyond the shared type;
//! - *one name reference*: its traversal in one box (56 bytes; the
//!   traversal's fields are public API, so the view must borrow a whole
//!   [`BoundScopeTraversal`], and storing that inline would take the tree
//!   past 56 bytes);
//! - *a root with one leaf child* (a string, `[1]`, `-x`, `(1)`): the two
//!   nodes' types, ranges and tags side by side, no heap, so a string
//!   attribute costs its 40 bytes and nothing else;
//! - anything else: the flat vectors above in one box (`Flat`). Such a
//!   tree pays the box (120 bytes) on top of its vectors, 48 bytes more
//!   than when the vectors were inline, but it is at least three nodes (60
//!   bytes) and usually a list or a traversal besides.
//!
//! The binder builds every tree in the flat form, in a scratch tree it
//! reuses (pushes grow the vectors; no per-node matching), and
//! [`BoundTree::take_exact`] freezes it: a small shape moves to its inline
//! form, the rest is copied out in vectors of exactly its size. Reading
//! goes through [`BoundTree::node`], which returns a node by value (an
//! inline node is rebuilt from its fields, with the payload its shape
//! implies), so the views do not know which form they read. Pushing onto
//! an inline tree first turns it back into the flat form.
//!
//! Everything that walks a whole tree ([`BoundRef::node_references`],
//! [`BoundRef::called_functions`]) does it with a heap stack. Ids come
//! from the binder, never from input text; a view of an id outside the
//! tree reads as an error node rather than panicking.

use std::sync::{Arc, OnceLock};

use pcl_diagnostics::{Code, Diagnostic, TextRange};
use pcl_syntax::tree::{BinaryOp, UnaryOp};
use pcl_types::{Name, Type, Value};

use crate::scope::{Definition, Function};
use crate::signature::Signature;

mod build;
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
///
/// The root's type ([`BoundScopeTraversal::root_type`]) is the type of
/// the definition before any step; each [`BoundStep`] carries the type
/// after it. A generator reads them to choose how to write a step: an
/// attribute of an object type as `.key`, a key of a map as `["key"]`.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundScopeTraversal {
    /// The name (shared by the references that repeat it).
    pub root: Name,
    pub root_range: TextRange,
    /// What the name resolved to; `None` when it is undefined.
    pub definition: Option<Definition>,
    /// The type of the root definition before any step (`dynamic` when
    /// the name is undefined).
    pub root_type: Type,
    pub steps: Box<[BoundStep]>,
}

impl BoundScopeTraversal {
    /// The type of the root definition before any step: a node's type as
    /// references see it, a variable's type, `none` for `null`; `dynamic`
    /// for an undefined name or a keyword. For a property named in
    /// `ignoreChanges` & co. it is the property's type, while the
    /// traversal's own type is `Property`.
    pub fn root_type(&self) -> &Type {
        &self.root_type
    }
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
    /// For `invoke` with a literal token: the token as written, in the
    /// schema and canonical, or why it did not resolve.
    pub(crate) invoke: Option<Box<InvokeTokens>>,
}

/// Why a resource type or an invoke token did not resolve against its
/// schema: the diagnostic a check reports for it. Under the lenient
/// policy ([`crate::ExprOptions`]'s skip options, `--lenient`) some of
/// these are reported as warnings and some not at all; the reason is kept
/// either way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unresolved {
    diagnostic: Diagnostic,
    reported: bool,
}

impl Unresolved {
    /// Moves the diagnostic's spans by `delta` bytes (see
    /// [`BoundTree::shift`]).
    pub fn shift(&mut self, delta: i64) {
        self.diagnostic
            .map_spans(&mut |s| Some(pcl_diagnostics::Span::new(s.file, s.range.shifted(delta)?)));
    }

    /// The reason `diagnostic` gives; `reported` says whether the check
    /// reported it (else the policy silenced it).
    pub fn new(diagnostic: Diagnostic, reported: bool) -> Unresolved {
        Unresolved {
            diagnostic,
            reported,
        }
    }

    /// The diagnostic's code (`unknown-resource-type`, `unknown-package`,
    /// `unknown-function`, …).
    pub fn code(&self) -> Code {
        self.diagnostic.code
    }

    /// The diagnostic's one-line message (`unknown resource type
    /// `aws:s3:Bukket``).
    pub fn message(&self) -> &str {
        &self.diagnostic.summary
    }

    /// The diagnostic's longer explanation, when it has one (a loader's
    /// error for an unknown package).
    pub fn detail(&self) -> Option<&str> {
        self.diagnostic.detail()
    }

    /// The whole diagnostic, with the severity its binder gave it (a
    /// warning when the policy downgraded or silenced it; see
    /// [`Unresolved::reported`] for unknown packages).
    pub fn diagnostic(&self) -> &Diagnostic {
        &self.diagnostic
    }

    /// Whether the check reports the problem (`false` when the policy
    /// silenced it, as `--lenient` silences unknown resource types and
    /// invoke problems). A check reports an unknown package once per
    /// package, at its first use, and as an error unless it is lenient
    /// about resources or invokes.
    pub fn reported(&self) -> bool {
        self.reported
    }
}

/// The tokens of an `invoke` call ([`BoundCall::invoke`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvokeTokens {
    pub(crate) written: String,
    pub(crate) schema: Option<String>,
    pub(crate) canonical: Option<String>,
    pub(crate) unresolved: Option<Unresolved>,
}

impl InvokeTokens {
    /// The token as written in the call's first argument
    /// (`aws:ec2:getAmi`); the argument keeps it.
    pub fn written_token(&self) -> &str {
        &self.written
    }

    /// The function's token as the package schema declares it
    /// (`aws:ec2/getAmi:getAmi`); `None` when it did not resolve.
    pub fn schema_token(&self) -> Option<&str> {
        self.schema.as_deref()
    }

    /// The canonical key of Pulumi's binder (`aws:ec2:getAmi`,
    /// `random::randomPet`: the package, the module the schema's
    /// `meta.moduleFormat` extracts from the schema token, `index` read as
    /// none, and the member; `pulumi:pulumi:X` stays whole) when the token
    /// resolved; otherwise the token as written.
    pub fn canonical_token(&self) -> &str {
        self.canonical.as_deref().unwrap_or(&self.written)
    }

    /// Whether the token resolved against a schema.
    pub fn is_resolved(&self) -> bool {
        self.schema.is_some()
    }

    /// Why the token did not resolve (an unknown package or function, a
    /// malformed token, a schema that failed to load); kept under the
    /// lenient policy too, where the check reports nothing.
    pub fn unresolved(&self) -> Option<&Unresolved> {
        self.unresolved.as_ref()
    }
}

/// One bound expression: its nodes in post-order (the root is the last),
/// the types they have and their side data (see the module docs), stored
/// inline when the tree is one of the small shapes most are, else in one
/// box.
///
/// `PartialEq` compares the stored representation: a clone is equal to
/// its tree, and two trees frozen by [`BoundTree::take_exact`] from the
/// same nodes are equal.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoundTree {
    repr: Repr,
}

/// The forms of a [`BoundTree`] (see the module docs). An inline node has
/// no payload: a leaf's child list, if its kind has one, is empty; the
/// root of a pair has exactly one child, node 0 (implicit, or its child
/// list `[0]`); a reference's traversal is the boxed one.
#[derive(Clone, Debug, Default, PartialEq)]
enum Repr {
    /// No node (a tree not built yet).
    #[default]
    Empty,
    /// One leaf: a node without side data.
    One {
        ty: Type,
        range: TextRange,
        tag: Tag,
    },
    /// One name reference.
    Ref {
        ty: Type,
        range: TextRange,
        traversal: Box<BoundScopeTraversal>,
    },
    /// A leaf (node 0) under a root with no other child (node 1): the
    /// nodes' fields in arrays of two, so the tree stays at 40 bytes.
    Pair {
        types: [Type; 2],
        ranges: [TextRange; 2],
        tags: [Tag; 2],
        /// The root's operator byte (a leaf's is 0).
        op: u8,
    },
    /// Any other tree, and every tree being built.
    Flat(Box<Flat>),
}

/// A tree in vectors: the form the binder builds in, and the frozen form
/// of every tree that is not small.
#[derive(Clone, Debug, Default, PartialEq)]
struct Flat {
    nodes: Vec<Node>,
    /// The types of index 0 and 1 (each distinct type once, as far as the
    /// last few pushed show; the first two inline, as most trees have at
    /// most two).
    first_types: [Option<Type>; 2],
    /// The types of index 2 on.
    types: Vec<Type>,
    /// Child lists, each its length, then its ids.
    lists: Vec<u32>,
    traversals: Vec<BoundScopeTraversal>,
    /// The for expressions, calls and relative steps, in a box allocated
    /// on first use.
    rare: Option<Box<Rare>>,
}

/// The data of the kinds most trees do not have.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Rare {
    pub(crate) fors: Vec<ForData>,
    pub(crate) calls: Vec<CallData>,
    pub(crate) steps: Vec<Box<[BoundStep]>>,
}

/// What a view of an id outside its tree reads.
const MISSING_NODE: Node = Node {
    ty: u32::MAX,
    range: TextRange { start: 0, end: 0 },
    tag: Tag::Error,
    op: 0,
    payload: 0,
};

/// The payload of an inline pair's root: its child list is [`ONLY_FIRST`].
/// Every other inline node's payload is 0, which reads as the empty list
/// (and, for a reference, as its traversal).
const PAIR_ROOT_LIST: u32 = 1;

/// The child list of an inline pair's root.
static ONLY_FIRST: [BoundId; 1] = [0];

/// The type of a node whose type index is outside its tree.
fn missing_type() -> &'static Type {
    static TYPE: OnceLock<Type> = OnceLock::new();
    TYPE.get_or_init(Type::dynamic)
}

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

impl Node {
    /// An inline node read back: type index `id`, the payload its shape
    /// implies.
    fn inline(id: BoundId, range: TextRange, tag: Tag, op: u8, payload: u32) -> Node {
        Node {
            ty: id,
            range,
            tag,
            op,
            payload,
        }
    }
}

impl Flat {
    fn type_at(&self, index: u32) -> Option<&Type> {
        match index {
            0 => self.first_types[0].as_ref(),
            1 => self.first_types[1].as_ref(),
            i => self.types.get(i as usize - 2),
        }
    }

    fn list(&self, at: u32) -> &[u32] {
        let at = at as usize;
        let len = self.lists.get(at).copied().unwrap_or(0) as usize;
        self.lists.get(at + 1..at + 1 + len).unwrap_or_default()
    }
}

/// Moves `range` by `delta` (kept where that would leave `u32`, which
/// positions of a text held in memory never do).
fn shift_range(range: &mut TextRange, delta: i64) {
    if let Some(moved) = range.shifted(delta) {
        *range = moved;
    }
}

fn shift_traversal(t: &mut BoundScopeTraversal, delta: i64) {
    shift_range(&mut t.root_range, delta);
    for step in t.steps.iter_mut() {
        shift_range(&mut step.range, delta);
    }
    if let Some(Definition::Variable(v)) = &mut t.definition {
        if v.range.is_some() {
            let v = Arc::make_mut(v);
            if let Some(span) = &mut v.range {
                shift_range(&mut span.range, delta);
            }
        }
    }
}

impl BoundTree {
    /// Moves every position the tree holds (its nodes', steps', calls'
    /// names', the declarations of the variables it names and the
    /// diagnostics of unresolved invokes) by `delta` bytes: the tree of
    /// an expression whose text moved, every position assumed to be in
    /// the text that moved. Linear in the tree.
    pub fn shift(&mut self, delta: i64) {
        match &mut self.repr {
            Repr::Empty => {}
            Repr::One { range, .. } => shift_range(range, delta),
            Repr::Ref {
                range, traversal, ..
            } => {
                shift_range(range, delta);
                shift_traversal(traversal, delta);
            }
            Repr::Pair { ranges, .. } => {
                for range in ranges.iter_mut() {
                    shift_range(range, delta);
                }
            }
            Repr::Flat(flat) => {
                for node in &mut flat.nodes {
                    shift_range(&mut node.range, delta);
                }
                for t in &mut flat.traversals {
                    shift_traversal(t, delta);
                }
                if let Some(rare) = &mut flat.rare {
                    for call in &mut rare.calls {
                        shift_range(&mut call.name_range, delta);
                        if let Some(u) = call.invoke.as_mut().and_then(|i| i.unresolved.as_mut()) {
                            u.shift(delta);
                        }
                    }
                    for steps in &mut rare.steps {
                        for step in steps.iter_mut() {
                            shift_range(&mut step.range, delta);
                        }
                    }
                }
            }
        }
    }

    /// An empty tree (the binder fills it; a bound tree is never empty).
    pub fn new() -> BoundTree {
        BoundTree::default()
    }

    /// The root expression (the last node).
    pub fn root(&self) -> BoundRef<'_> {
        self.get(self.len().saturating_sub(1) as BoundId)
    }

    /// A view of one node.
    pub fn get(&self, id: BoundId) -> BoundRef<'_> {
        BoundRef::new(self, id)
    }

    /// How many nodes the tree holds.
    pub fn len(&self) -> usize {
        match &self.repr {
            Repr::Empty => 0,
            Repr::One { .. } | Repr::Ref { .. } => 1,
            Repr::Pair { .. } => 2,
            Repr::Flat(f) => f.nodes.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
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

    // ---- reading, whatever the form ------------------------------------------------------

    /// Node `id` ([`MISSING_NODE`] outside the tree).
    pub(crate) fn node(&self, id: BoundId) -> Node {
        match (&self.repr, id) {
            (Repr::Flat(f), _) => f.nodes.get(id as usize).copied().unwrap_or(MISSING_NODE),
            (Repr::One { range, tag, .. }, 0) => Node::inline(0, *range, *tag, 0, 0),
            (Repr::Ref { range, .. }, 0) => Node::inline(0, *range, Tag::ScopeTraversal, 0, 0),
            (Repr::Pair { ranges, tags, .. }, 0) => Node::inline(0, ranges[0], tags[0], 0, 0),
            (
                Repr::Pair {
                    ranges, tags, op, ..
                },
                1,
            ) => Node::inline(1, ranges[1], tags[1], *op, PAIR_ROOT_LIST),
            _ => MISSING_NODE,
        }
    }

    pub(crate) fn node_type(&self, node: &Node) -> &Type {
        let ty = match &self.repr {
            Repr::Flat(f) => f.type_at(node.ty),
            Repr::One { ty, .. } | Repr::Ref { ty, .. } => (node.ty == 0).then_some(ty),
            Repr::Pair { types, .. } => types.get(node.ty as usize),
            Repr::Empty => None,
        };
        ty.unwrap_or_else(|| missing_type())
    }

    /// The type of node `id` (a missing node's outside the tree).
    pub(crate) fn ty_of(&self, id: BoundId) -> &Type {
        let ty = match &self.repr {
            Repr::Flat(f) => f.nodes.get(id as usize).and_then(|n| f.type_at(n.ty)),
            Repr::One { ty, .. } | Repr::Ref { ty, .. } => (id == 0).then_some(ty),
            Repr::Pair { types, .. } => types.get(id as usize),
            Repr::Empty => None,
        };
        ty.unwrap_or_else(|| missing_type())
    }

    /// The range of node `id` (empty outside the tree).
    pub(crate) fn range_of(&self, id: BoundId) -> TextRange {
        match &self.repr {
            Repr::Flat(f) => f
                .nodes
                .get(id as usize)
                .map_or(MISSING_NODE.range, |n| n.range),
            Repr::One { range, .. } | Repr::Ref { range, .. } if id == 0 => *range,
            Repr::Pair { ranges, .. } => ranges.get(id as usize).copied().unwrap_or_default(),
            _ => MISSING_NODE.range,
        }
    }

    /// The child list at `at` (a node's payload).
    pub(crate) fn list(&self, at: u32) -> &[u32] {
        match &self.repr {
            Repr::Flat(f) => f.list(at),
            Repr::Pair { .. } if at == PAIR_ROOT_LIST => &ONLY_FIRST,
            _ => &[],
        }
    }

    /// The name reference at `at` (a node's payload).
    pub(crate) fn traversal(&self, at: u32) -> Option<&BoundScopeTraversal> {
        match &self.repr {
            Repr::Flat(f) => f.traversals.get(at as usize),
            Repr::Ref { traversal, .. } if at == 0 => Some(traversal),
            _ => None,
        }
    }

    pub(crate) fn rare(&self) -> Option<&Rare> {
        match &self.repr {
            Repr::Flat(f) => f.rare.as_deref(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
