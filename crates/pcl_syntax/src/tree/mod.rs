//! The flat syntax tree: typed arenas linked by `u32` ids.
//!
//! A parse builds one [`Tree`]. Its nodes live in a few arenas, one per
//! node type (expressions, traversal steps, object items, template parts,
//! body items, …); a node refers to its children by index, and every list
//! of children (a call's arguments, a body's items, a template's parts) is
//! one contiguous run of an arena, written once when the list is complete
//! ([`Builder`] keeps the lists under construction on scratch stacks).
//! Names and literal texts are ranges into the source; text that differs
//! from its source bytes (a decoded string, a joined call name) lives in
//! one side buffer. Wide integers live in a side table of `BigInt`s.
//!
//! Memory is linear in the source and kept small: a one-token
//! expression (a number, a name, `true`/`false`/`null`, a plain string)
//! is not stored at all (its id names its start; its kind and value are
//! read from the source), every other expression is a 16-byte slot plus a
//! one-byte tag, and a traversal step is 16 bytes (`store.rs` has the
//! encoding).
//!
//! Nothing outside this crate sees the arenas: the typed AST is the set of
//! borrowing views in [`views`] ([`ExprRef`], [`BodyRef`], …), which are
//! `Copy` handles of a tree reference and an index. Dropping a tree frees a
//! few vectors, whatever the depth of the program.
//!
//! The tree is lossless together with the token list it is built from:
//! every node knows its byte range, [`crate::Parsed::tokens_in`] gives
//! the tokens (trivia included) of any range, and comments attach to body
//! items by the rule in `comments.rs`; a comment inside an expression
//! belongs to the innermost node whose range contains it
//! ([`crate::Parsed::node_at`]).

pub(crate) mod builder;
mod items;
pub(crate) mod nav;
mod parts;
mod store;
mod views;

use num_bigint::BigInt;
use pcl_diagnostics::TextRange;

pub(crate) use items::{BodyNode, Comments, ItemNode};
pub use nav::NodeRef;
pub(crate) use parts::StoredPart;
pub(crate) use store::{Bits, Slot, WideBinary, LEAF};
pub use views::*;

/// An expression of a [`Tree`]: the index of a stored node, or (with
/// the top bit set) a one-token expression that is not stored, named by
/// its start offset (see `store.rs`). Unique within a tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub(crate) u32);

impl ExprId {
    /// The id as a number, e.g. to key a side table by expression (a
    /// map: ids of unstored expressions are above 2^31).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Index of a body in [`Tree`]'s body arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyId(pub(crate) u32);

/// A contiguous run of one arena: a list of children.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Run {
    pub(crate) start: u32,
    pub(crate) len: u32,
}

impl Run {
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + self.len as usize
    }
}

/// A text: bytes of the source, or of the tree's side buffer of decoded
/// text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Text {
    Source(TextRange),
    Decoded { start: u32, len: u32 },
}

/// The arenas of one parse.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    /// The stored expressions (see `store.rs`): a slot and a tag each.
    pub(crate) slots: Vec<Slot>,
    pub(crate) expr_tags: Vec<u8>,
    /// The last byte of every unstored (leaf) expression.
    pub(crate) leaf_ends: Bits,
    /// Traversals whose source is not a leaf at their start.
    pub(crate) traversals: Vec<(ExprId, Run)>,
    pub(crate) conditionals: Vec<[ExprId; 3]>,
    /// Binary nodes whose operator is far from their left operand.
    pub(crate) wide_binaries: Vec<WideBinary>,
    /// Runs of expression ids: tuple elements, call arguments.
    pub(crate) expr_lists: Vec<ExprId>,
    pub(crate) steps: Vec<StepNode>,
    /// The names of `WideAttr` steps and the digits and values of legacy
    /// index steps.
    pub(crate) step_extras: Vec<(TextRange, u32)>,
    pub(crate) object_items: Vec<ObjectItemNode>,
    pub(crate) templates: Vec<TemplateNode>,
    pub(crate) parts: Vec<StoredPart>,
    /// The texts of literal parts that are not their source bytes.
    pub(crate) literal_texts: Vec<Text>,
    pub(crate) template_ifs: Vec<TemplateIfNode>,
    pub(crate) template_fors: Vec<TemplateForNode>,
    pub(crate) calls: Vec<CallNode>,
    pub(crate) fors: Vec<ForNode>,
    pub(crate) splats: Vec<SplatNode>,
    /// Identifier ranges: call name segments.
    pub(crate) idents: Vec<TextRange>,
    pub(crate) bodies: Vec<BodyNode>,
    pub(crate) items: Vec<ItemNode>,
    /// The blocks that are not compact items (see `items.rs`).
    pub(crate) blocks: Vec<BlockNode>,
    /// The names and `=` of attributes that are not compact items.
    pub(crate) attr_extras: Vec<[TextRange; 2]>,
    pub(crate) labels: Vec<LabelNode>,
    pub(crate) comments: Comments,
    pub(crate) decoded: String,
    pub(crate) bigs: Vec<BigInt>,
    /// Each expression's parent, built on first use (see `nav.rs`).
    pub(crate) parents: std::sync::OnceLock<nav::Parents>,
}

impl Tree {
    /// The number of stored expression nodes (one-token expressions are
    /// not stored, see [`ExprId`]).
    pub fn expr_count(&self) -> usize {
        self.slots.len()
    }

    /// Bytes held by the arenas (capacity, not length), for memory
    /// benchmarks.
    pub fn heap_bytes(&self) -> usize {
        fn bytes<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        bytes(&self.slots)
            + bytes(&self.expr_tags)
            + self.leaf_ends.bytes()
            + bytes(&self.traversals)
            + bytes(&self.conditionals)
            + bytes(&self.wide_binaries)
            + bytes(&self.expr_lists)
            + bytes(&self.steps)
            + bytes(&self.step_extras)
            + bytes(&self.object_items)
            + bytes(&self.templates)
            + bytes(&self.parts)
            + bytes(&self.literal_texts)
            + bytes(&self.template_ifs)
            + bytes(&self.template_fors)
            + bytes(&self.calls)
            + bytes(&self.fors)
            + bytes(&self.splats)
            + bytes(&self.idents)
            + bytes(&self.bodies)
            + bytes(&self.items)
            + bytes(&self.blocks)
            + bytes(&self.attr_extras)
            + bytes(&self.labels)
            + bytes(&self.comments.nodes)
            + bytes(&self.comments.runs)
            + self.decoded.capacity()
            + bytes(&self.bigs)
    }
}

/// What an expression is, as the parser builds it and the views read
/// it; the tree stores it compactly (`store.rs`). Large, rare forms
/// (calls, `for` expressions, splats, templates) live in their own arenas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ExprNodeKind {
    /// An integer that fits in a `u64`, split in two halves to keep the
    /// node 4-byte aligned.
    Int {
        lo: u32,
        hi: u32,
    },
    /// A wider integer: an index into `bigs`.
    BigInt(u32),
    /// A fractional number: the `f64`'s bits, split.
    Fraction {
        lo: u32,
        hi: u32,
    },
    InvalidNumber,
    Bool(bool),
    Null,
    Template(u32),
    /// The name is the node's range.
    Variable,
    Traversal {
        source: ExprId,
        steps: Run,
    },
    Splat(u32),
    SplatItem,
    Call(u32),
    For(u32),
    Conditional {
        condition: ExprId,
        then_expr: ExprId,
        else_expr: ExprId,
    },
    Binary {
        op: BinaryOp,
        op_start: u32,
        lhs: ExprId,
        rhs: ExprId,
    },
    Unary {
        op: UnaryOp,
        op_start: u32,
        operand: ExprId,
    },
    Tuple(Run),
    Object(Run),
    Parens(ExprId),
    Error,
    /// A quoted string with at most one literal part, whose text is its
    /// source bytes, stored as a leaf: its range, quotes included (never
    /// given to the builder, which makes it from a `Template`).
    PlainString(TextRange),
}

/// One traversal step, 16 bytes: its range, a tag and one `u32` (see
/// [`StepNode::kind`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct StepNode {
    pub(crate) range: TextRange,
    /// `Attr`: where the name starts (it ends with the step); `Index`: the
    /// expression; `WideAttr`, `LegacyIndex`: an index into `step_extras`.
    a: u32,
    tag: StepTag,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum StepTag {
    Attr,
    /// An attribute step whose name does not end with it.
    WideAttr,
    Index,
    LegacyIndex,
}

impl StepNode {
    /// What the step is, as the builder was given it.
    pub(crate) fn kind(&self, tree: &Tree) -> StepNodeKind {
        let extra = || tree.step_extras.get(self.a as usize).copied();
        match self.tag {
            StepTag::Attr => StepNodeKind::Attr(TextRange::new(self.a, self.range.end)),
            StepTag::Index => StepNodeKind::Index(ExprId(self.a)),
            StepTag::WideAttr => StepNodeKind::Attr(extra().map_or(self.range, |(name, _)| name)),
            StepTag::LegacyIndex => {
                let (digits, value) = extra().unwrap_or((self.range, u32::MAX));
                StepNodeKind::LegacyIndex { digits, value }
            }
        }
    }
}

/// What a step is (the builder's input; stored as a [`StepNode`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum StepNodeKind {
    Attr(TextRange),
    Index(ExprId),
    /// `.0`: the digits' range and the value, an index into `bigs`.
    LegacyIndex {
        digits: TextRange,
        value: u32,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ObjectItemNode {
    pub(crate) key: ExprId,
    pub(crate) value: ExprId,
    pub(crate) range: TextRange,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TemplateNode {
    pub(crate) kind: TemplateNodeKind,
    pub(crate) parts: Run,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum TemplateNodeKind {
    Quoted,
    Heredoc { marker: TextRange, flush: bool },
    Bare,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct PartNode {
    pub(crate) kind: PartNodeKind,
    pub(crate) range: TextRange,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PartNodeKind {
    Literal(Text),
    Interpolation { expr: ExprId, strip: Strip },
    If(u32),
    For(u32),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TemplateIfNode {
    pub(crate) condition: ExprId,
    pub(crate) then_parts: Run,
    pub(crate) else_parts: Option<Run>,
    pub(crate) if_strip: Strip,
    pub(crate) else_strip: Strip,
    pub(crate) endif_strip: Strip,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TemplateForNode {
    pub(crate) key_var: Option<TextRange>,
    pub(crate) value_var: TextRange,
    pub(crate) collection: ExprId,
    pub(crate) body: Run,
    pub(crate) for_strip: Strip,
    pub(crate) endfor_strip: Strip,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CallNode {
    pub(crate) name: Text,
    pub(crate) name_range: TextRange,
    pub(crate) segments: Run,
    pub(crate) args: Run,
    pub(crate) expand_final: bool,
    pub(crate) open_paren: TextRange,
    pub(crate) close_paren: TextRange,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ForNode {
    pub(crate) kind: ForKind,
    pub(crate) key_var: Option<TextRange>,
    pub(crate) value_var: TextRange,
    pub(crate) collection: ExprId,
    pub(crate) key_expr: Option<ExprId>,
    pub(crate) value_expr: ExprId,
    pub(crate) grouping: bool,
    pub(crate) condition: Option<ExprId>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SplatNode {
    pub(crate) source: ExprId,
    pub(crate) kind: SplatKind,
    pub(crate) marker: TextRange,
    pub(crate) each: ExprId,
}

/// A block as the parser builds it, and as a block item that is not
/// compact stores it (see `items.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BlockNode {
    pub(crate) type_name: TextRange,
    pub(crate) labels: Run,
    pub(crate) body: BodyId,
    pub(crate) open_brace: TextRange,
    pub(crate) close_brace: TextRange,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LabelNode {
    pub(crate) value: Text,
    pub(crate) quoted: bool,
    pub(crate) range: TextRange,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct CommentNode {
    pub(crate) kind: CommentKind,
    /// Without the terminating line break.
    pub(crate) range: TextRange,
}

/// What kind of comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `# …`
    Hash,
    /// `// …`
    DoubleSlash,
    /// `/* … */`
    Block,
}

/// Which splat operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SplatKind {
    /// `.*`: only the following `.name` / `.0` steps apply per element.
    Attr,
    /// `[*]`: the whole rest of the postfix chain applies per element.
    Full,
}

/// Tuple or object `for` expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForKind {
    Tuple,
    Object,
}

/// Binary operators, loosest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Or,
    And,
    Equal,
    NotEqual,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulo,
}

impl BinaryOp {
    /// Every operator, in declaration order (`ALL[op as usize] == op`):
    /// compact stores keep an operator as its index.
    pub const ALL: [BinaryOp; 13] = [
        BinaryOp::Or,
        BinaryOp::And,
        BinaryOp::Equal,
        BinaryOp::NotEqual,
        BinaryOp::Less,
        BinaryOp::LessEqual,
        BinaryOp::Greater,
        BinaryOp::GreaterEqual,
        BinaryOp::Add,
        BinaryOp::Subtract,
        BinaryOp::Multiply,
        BinaryOp::Divide,
        BinaryOp::Modulo,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Equal => "==",
            BinaryOp::NotEqual => "!=",
            BinaryOp::Less => "<",
            BinaryOp::LessEqual => "<=",
            BinaryOp::Greater => ">",
            BinaryOp::GreaterEqual => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Subtract => "-",
            BinaryOp::Multiply => "*",
            BinaryOp::Divide => "/",
            BinaryOp::Modulo => "%",
        }
    }
    /// Binding strength, 1 (loosest, `||`) to 6 (`*`, `/`, `%`): the
    /// EBNF's precedence table.
    pub fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or => 1,
            BinaryOp::And => 2,
            BinaryOp::Equal | BinaryOp::NotEqual => 3,
            BinaryOp::Less | BinaryOp::LessEqual | BinaryOp::Greater | BinaryOp::GreaterEqual => 4,
            BinaryOp::Add | BinaryOp::Subtract => 5,
            BinaryOp::Multiply | BinaryOp::Divide | BinaryOp::Modulo => 6,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-`
    Negate,
    /// `!`
    Not,
}

impl UnaryOp {
    pub fn as_str(self) -> &'static str {
        match self {
            UnaryOp::Negate => "-",
            UnaryOp::Not => "!",
        }
    }
}

/// Template strip markers (`~`) on a sequence's two sides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Strip {
    /// `${~` / `%{~`: strip the whitespace before.
    pub left: bool,
    /// `~}`: strip the whitespace after.
    pub right: bool,
}

#[cfg(test)]
mod tests;
