//! The typed AST: borrowing views of a [`Tree`].
//!
//! Every view is a `Copy` pair of the tree (with its source text) and an
//! index; reading a view never allocates. Lists of children are
//! [`List`]s. Shapes follow the HCL native syntax, simplified for walkers:
//! every postfix chain (`.name`, `[index]`, legacy `.0`) is one
//! [`ExprKind::Traversal`] with a flat list of steps, and splats are
//! [`ExprKind::Splat`] nodes whose per-element expression is rooted at
//! [`ExprKind::SplatItem`].

use std::marker::PhantomData;

use num_bigint::BigInt;
use pcl_diagnostics::TextRange;

use super::*;

/// A tree and the source text its ranges point into.
#[derive(Clone, Copy)]
pub struct Src<'t> {
    pub(crate) tree: &'t Tree,
    pub(crate) text: &'t str,
}

impl<'t> Src<'t> {
    pub(crate) fn new(tree: &'t Tree, text: &'t str) -> Src<'t> {
        Src { tree, text }
    }
    pub(crate) fn slice(self, range: TextRange) -> &'t str {
        self.text.get(range.to_usize()).unwrap_or("")
    }
    pub(crate) fn text_of(self, text: Text) -> &'t str {
        match text {
            Text::Source(range) => self.slice(range),
            Text::Decoded { start, len } => {
                let start = start as usize;
                self.tree
                    .decoded
                    .get(start..start + len as usize)
                    .unwrap_or("")
            }
        }
    }
    pub(crate) fn expr(self, id: ExprId) -> ExprRef<'t> {
        ExprRef { src: self, id }
    }
    /// The whole source text.
    pub fn source(self) -> &'t str {
        self.text
    }
}

impl std::fmt::Debug for Src<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Src")
    }
}

/// A view that can be an element of a [`List`]: it knows its arena.
pub trait Element<'t>: Sized {
    #[doc(hidden)]
    fn at(src: Src<'t>, index: usize) -> Option<Self>;
}

/// A list of children: a run of one arena.
#[derive(Clone, Copy)]
pub struct List<'t, V> {
    src: Src<'t>,
    run: Run,
    _view: PhantomData<V>,
}

impl<'t, V: Element<'t>> List<'t, V> {
    pub(crate) fn new(src: Src<'t>, run: Run) -> List<'t, V> {
        List {
            src,
            run,
            _view: PhantomData,
        }
    }
    pub fn len(&self) -> usize {
        self.run.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.run.len == 0
    }
    pub fn get(&self, i: usize) -> Option<V> {
        if i < self.len() {
            V::at(self.src, self.run.start as usize + i)
        } else {
            None
        }
    }
    pub fn first(&self) -> Option<V> {
        self.get(0)
    }
    pub fn last(&self) -> Option<V> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }
    pub fn iter(&self) -> ListIter<'t, V> {
        ListIter {
            src: self.src,
            next: self.run.start as usize,
            end: self.run.start as usize + self.run.len as usize,
            _view: PhantomData,
        }
    }
}

impl<'t, V: Element<'t>> IntoIterator for List<'t, V> {
    type Item = V;
    type IntoIter = ListIter<'t, V>;
    fn into_iter(self) -> ListIter<'t, V> {
        self.iter()
    }
}

impl<'t, V: Element<'t> + std::fmt::Debug> std::fmt::Debug for List<'t, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Iterator over a [`List`].
#[derive(Clone)]
pub struct ListIter<'t, V> {
    src: Src<'t>,
    next: usize,
    end: usize,
    _view: PhantomData<V>,
}

impl<'t, V: Element<'t>> Iterator for ListIter<'t, V> {
    type Item = V;
    fn next(&mut self) -> Option<V> {
        while self.next < self.end {
            let i = self.next;
            self.next += 1;
            if let Some(v) = V::at(self.src, i) {
                return Some(v);
            }
        }
        None
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end.saturating_sub(self.next);
        (n, Some(n))
    }
}

impl<'t, V: Element<'t>> DoubleEndedIterator for ListIter<'t, V> {
    fn next_back(&mut self) -> Option<V> {
        while self.end > self.next {
            self.end -= 1;
            if let Some(v) = V::at(self.src, self.end) {
                return Some(v);
            }
        }
        None
    }
}

impl<'t, V: Element<'t>> ExactSizeIterator for ListIter<'t, V> {}

// ----------------------------------------------------------------------
// Bodies, items, blocks
// ----------------------------------------------------------------------

/// A sequence of attributes and blocks: a whole file or a block's body.
#[derive(Clone, Copy, Debug)]
pub struct BodyRef<'t> {
    pub(crate) src: Src<'t>,
    pub(crate) node: &'t BodyNode,
}

impl<'t> BodyRef<'t> {
    pub(crate) fn new(src: Src<'t>, id: BodyId) -> BodyRef<'t> {
        static EMPTY: BodyNode = BodyNode {
            items: Run { start: 0, len: 0 },
            range: TextRange { start: 0, end: 0 },
            dangling: Run { start: 0, len: 0 },
        };
        let node = src.tree.bodies.get(id.0 as usize).unwrap_or(&EMPTY);
        BodyRef { src, node }
    }
    pub fn items(self) -> List<'t, ItemRef<'t>> {
        List::new(self.src, self.node.items)
    }
    pub fn range(self) -> TextRange {
        self.node.range
    }
    /// Comments inside the body that attach to no item (after the last
    /// item, or separated from the next item by a blank line).
    pub fn dangling_comments(self) -> List<'t, CommentRef<'t>> {
        List::new(self.src, self.node.dangling)
    }
    /// The attributes of this body, in source order.
    pub fn attributes(self) -> impl DoubleEndedIterator<Item = AttributeRef<'t>> + Clone {
        self.items().iter().filter_map(ItemRef::as_attribute)
    }
    /// The blocks of this body, in source order.
    pub fn blocks(self) -> impl DoubleEndedIterator<Item = BlockRef<'t>> + Clone {
        self.items().iter().filter_map(ItemRef::as_block)
    }
}

/// One item of a body.
#[derive(Clone, Copy, Debug)]
pub struct ItemRef<'t> {
    src: Src<'t>,
    node: &'t ItemNode,
}

impl<'t> Element<'t> for ItemRef<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(ItemRef {
            src,
            node: src.tree.items.get(index)?,
        })
    }
}

/// What an item is.
#[derive(Clone, Copy, Debug)]
pub enum Item<'t> {
    Attribute(AttributeRef<'t>),
    Block(BlockRef<'t>),
}

impl<'t> ItemRef<'t> {
    pub fn kind(self) -> Item<'t> {
        match self.node.kind {
            ItemNodeKind::Attribute { .. } => Item::Attribute(AttributeRef { item: self }),
            ItemNodeKind::Block(index) => {
                match self.src.tree.blocks.get(index as usize) {
                    Some(node) => Item::Block(BlockRef { item: self, node }),
                    // Unreachable: block indices come from the builder.
                    None => Item::Attribute(AttributeRef { item: self }),
                }
            }
        }
    }
    pub fn as_attribute(self) -> Option<AttributeRef<'t>> {
        match self.kind() {
            Item::Attribute(attr) => Some(attr),
            Item::Block(_) => None,
        }
    }
    pub fn as_block(self) -> Option<BlockRef<'t>> {
        match self.kind() {
            Item::Block(block) => Some(block),
            Item::Attribute(_) => None,
        }
    }
    pub fn range(self) -> TextRange {
        self.node.range
    }
    pub fn leading_comments(self) -> List<'t, CommentRef<'t>> {
        List::new(self.src, self.node.leading)
    }
    pub fn trailing_comments(self) -> List<'t, CommentRef<'t>> {
        List::new(self.src, self.node.trailing)
    }
}

/// `name = expr`.
#[derive(Clone, Copy, Debug)]
pub struct AttributeRef<'t> {
    item: ItemRef<'t>,
}

impl<'t> AttributeRef<'t> {
    fn parts(self) -> (TextRange, TextRange, ExprId) {
        match self.item.node.kind {
            ItemNodeKind::Attribute { name, equals, expr } => (name, equals, expr),
            ItemNodeKind::Block(_) => {
                (TextRange::default(), TextRange::default(), ExprId(u32::MAX))
            }
        }
    }
    pub fn name(self) -> &'t str {
        self.item.src.slice(self.parts().0)
    }
    pub fn name_range(self) -> TextRange {
        self.parts().0
    }
    pub fn ident(self) -> Ident<'t> {
        Ident::new(self.item.src, self.parts().0)
    }
    /// The `=` token.
    pub fn equals_range(self) -> TextRange {
        self.parts().1
    }
    pub fn expr(self) -> ExprRef<'t> {
        self.item.src.expr(self.parts().2)
    }
    pub fn range(self) -> TextRange {
        self.item.node.range
    }
    pub fn item(self) -> ItemRef<'t> {
        self.item
    }
    pub fn leading_comments(self) -> List<'t, CommentRef<'t>> {
        self.item.leading_comments()
    }
    pub fn trailing_comments(self) -> List<'t, CommentRef<'t>> {
        self.item.trailing_comments()
    }
}

/// `type label* { body }`.
#[derive(Clone, Copy, Debug)]
pub struct BlockRef<'t> {
    item: ItemRef<'t>,
    node: &'t BlockNode,
}

impl<'t> BlockRef<'t> {
    pub fn type_name(self) -> &'t str {
        self.item.src.slice(self.node.type_name)
    }
    pub fn type_range(self) -> TextRange {
        self.node.type_name
    }
    pub fn labels(self) -> List<'t, LabelRef<'t>> {
        List::new(self.item.src, self.node.labels)
    }
    pub fn body(self) -> BodyRef<'t> {
        BodyRef::new(self.item.src, self.node.body)
    }
    pub fn open_brace_range(self) -> TextRange {
        self.node.open_brace
    }
    /// Empty (at the end of the block) when the closing brace is missing.
    pub fn close_brace_range(self) -> TextRange {
        self.node.close_brace
    }
    pub fn range(self) -> TextRange {
        self.item.node.range
    }
    pub fn item(self) -> ItemRef<'t> {
        self.item
    }
    pub fn leading_comments(self) -> List<'t, CommentRef<'t>> {
        self.item.leading_comments()
    }
    pub fn trailing_comments(self) -> List<'t, CommentRef<'t>> {
        self.item.trailing_comments()
    }
}

/// A block label: an identifier or a quoted string (escapes resolved, not
/// NFC-normalised, as HCL does for labels).
#[derive(Clone, Copy, Debug)]
pub struct LabelRef<'t> {
    src: Src<'t>,
    node: &'t LabelNode,
}

impl<'t> Element<'t> for LabelRef<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(LabelRef {
            src,
            node: src.tree.labels.get(index)?,
        })
    }
}

impl<'t> LabelRef<'t> {
    pub fn value(self) -> &'t str {
        self.src.text_of(self.node.value)
    }
    pub fn quoted(self) -> bool {
        self.node.quoted
    }
    pub fn range(self) -> TextRange {
        self.node.range
    }
}

/// A comment attached to a body item or dangling in a body.
#[derive(Clone, Copy, Debug)]
pub struct CommentRef<'t> {
    src: Src<'t>,
    node: &'t CommentNode,
}

impl<'t> Element<'t> for CommentRef<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(CommentRef {
            src,
            node: src.tree.comments.get(index)?,
        })
    }
}

impl<'t> CommentRef<'t> {
    pub fn kind(self) -> CommentKind {
        self.node.kind
    }
    /// The raw comment, delimiters included, without its line break.
    pub fn text(self) -> &'t str {
        self.src.slice(self.node.range)
    }
    pub fn range(self) -> TextRange {
        self.node.range
    }
    /// The comment text with its delimiters (`#`, `//`, `/*`, `*/`) removed.
    pub fn content(self) -> &'t str {
        let text = self.text();
        match self.node.kind {
            CommentKind::Hash => text.strip_prefix('#').unwrap_or(text),
            CommentKind::DoubleSlash => text.strip_prefix("//").unwrap_or(text),
            CommentKind::Block => {
                let inner = text.strip_prefix("/*").unwrap_or(text);
                inner.strip_suffix("*/").unwrap_or(inner)
            }
        }
    }
}

/// An identifier: its source text (not normalised) and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ident<'t> {
    pub name: &'t str,
    pub range: TextRange,
}

impl<'t> Ident<'t> {
    pub(crate) fn new(src: Src<'t>, range: TextRange) -> Ident<'t> {
        Ident {
            name: src.slice(range),
            range,
        }
    }
}

impl<'t> Element<'t> for Ident<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(Ident::new(src, *src.tree.idents.get(index)?))
    }
}

// ----------------------------------------------------------------------
// Expressions
// ----------------------------------------------------------------------

/// An expression.
#[derive(Clone, Copy)]
pub struct ExprRef<'t> {
    pub(crate) src: Src<'t>,
    pub(crate) id: ExprId,
}

impl std::fmt::Debug for ExprRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Expr#{} {}", self.id.0, self.range())
    }
}

impl PartialEq for ExprRef<'_> {
    /// The same node of the same tree.
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && std::ptr::eq(self.src.tree, other.src.tree)
    }
}

impl<'t> Element<'t> for ExprRef<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(src.expr(*src.tree.expr_lists.get(index)?))
    }
}

/// Every expression form.
#[derive(Clone, Copy, Debug)]
pub enum ExprKind<'t> {
    /// A number, `true`, `false` or `null`.
    Literal(Literal<'t>),
    /// A quoted string, a heredoc, or (for `parse_template`) a bare template.
    Template(TemplateRef<'t>),
    /// A root variable reference (`foo`). Followed by steps it becomes the
    /// `source` of an [`ExprKind::Traversal`].
    Variable(Ident<'t>),
    /// `source` followed by `.name`, `.0` and `[expr]` steps (a scope
    /// traversal when `source` is a [`ExprKind::Variable`], relative
    /// otherwise).
    Traversal(TraversalRef<'t>),
    /// `source.*.rest` or `source[*].rest`.
    Splat(SplatRef<'t>),
    /// The element a splat's `each` applies to.
    SplatItem,
    Call(CallRef<'t>),
    For(ForRef<'t>),
    Conditional(ConditionalRef<'t>),
    Binary(BinaryRef<'t>),
    Unary(UnaryRef<'t>),
    Tuple(List<'t, ExprRef<'t>>),
    Object(List<'t, ObjectItemRef<'t>>),
    /// `( expr )`, kept so that an object key in parentheses is never a
    /// bare name.
    Parens(ExprRef<'t>),
    /// A placeholder where a syntax error was reported.
    Error,
}

/// A literal value.
#[derive(Clone, Copy, Debug)]
pub enum Literal<'t> {
    Number(NumberRef<'t>),
    Bool(bool),
    Null,
}

impl<'t> ExprRef<'t> {
    pub fn id(self) -> ExprId {
        self.id
    }
    pub fn range(self) -> TextRange {
        self.node().range
    }
    fn node(self) -> &'t ExprNode {
        self.src.tree.expr_node(self.id)
    }
    /// True for the placeholder produced at a syntax error.
    pub fn is_error(self) -> bool {
        matches!(self.node().kind, ExprNodeKind::Error)
    }
    /// The source text of this expression.
    pub fn text(self) -> &'t str {
        self.src.slice(self.range())
    }
    pub fn kind(self) -> ExprKind<'t> {
        let src = self.src;
        let tree = src.tree;
        let node = self.node();
        let number = |value| {
            ExprKind::Literal(Literal::Number(NumberRef {
                text: src.slice(node.range),
                value,
            }))
        };
        match node.kind {
            ExprNodeKind::Int { lo, hi } => {
                number(NumberValue::Int(u64::from(lo) | (u64::from(hi) << 32)))
            }
            ExprNodeKind::BigInt(i) => match tree.bigs.get(i as usize) {
                Some(big) => number(NumberValue::Big(big)),
                None => number(NumberValue::Invalid),
            },
            ExprNodeKind::Fraction { lo, hi } => number(NumberValue::Fraction(f64::from_bits(
                u64::from(lo) | (u64::from(hi) << 32),
            ))),
            ExprNodeKind::InvalidNumber => number(NumberValue::Invalid),
            ExprNodeKind::Bool(b) => ExprKind::Literal(Literal::Bool(b)),
            ExprNodeKind::Null => ExprKind::Literal(Literal::Null),
            ExprNodeKind::Template(i) => match tree.templates.get(i as usize) {
                Some(node) => ExprKind::Template(TemplateRef { src, node }),
                None => ExprKind::Error,
            },
            ExprNodeKind::Variable => ExprKind::Variable(Ident::new(src, node.range)),
            ExprNodeKind::Traversal { source, steps } => {
                ExprKind::Traversal(TraversalRef { src, source, steps })
            }
            ExprNodeKind::Splat(i) => match tree.splats.get(i as usize) {
                Some(node) => ExprKind::Splat(SplatRef { src, node }),
                None => ExprKind::Error,
            },
            ExprNodeKind::SplatItem => ExprKind::SplatItem,
            ExprNodeKind::Call(i) => match tree.calls.get(i as usize) {
                Some(node) => ExprKind::Call(CallRef { src, node }),
                None => ExprKind::Error,
            },
            ExprNodeKind::For(i) => match tree.fors.get(i as usize) {
                Some(node) => ExprKind::For(ForRef { src, node }),
                None => ExprKind::Error,
            },
            ExprNodeKind::Conditional {
                condition,
                then_expr,
                else_expr,
            } => ExprKind::Conditional(ConditionalRef {
                condition: src.expr(condition),
                then_expr: src.expr(then_expr),
                else_expr: src.expr(else_expr),
            }),
            ExprNodeKind::Binary {
                op,
                op_start,
                lhs,
                rhs,
            } => ExprKind::Binary(BinaryRef {
                op,
                op_range: TextRange::new(op_start, op_start + op.as_str().len() as u32),
                lhs: src.expr(lhs),
                rhs: src.expr(rhs),
            }),
            ExprNodeKind::Unary {
                op,
                op_start,
                operand,
            } => ExprKind::Unary(UnaryRef {
                op,
                op_range: TextRange::new(op_start, op_start + 1),
                operand: src.expr(operand),
            }),
            ExprNodeKind::Tuple(run) => ExprKind::Tuple(List::new(src, run)),
            ExprNodeKind::Object(run) => ExprKind::Object(List::new(src, run)),
            ExprNodeKind::Parens(inner) => ExprKind::Parens(src.expr(inner)),
            ExprNodeKind::Error => ExprKind::Error,
        }
    }
    /// Calls `f` on each direct child expression, in source order.
    pub fn for_each_child(self, mut f: impl FnMut(ExprRef<'t>)) {
        match self.kind() {
            ExprKind::Literal(_)
            | ExprKind::Variable(_)
            | ExprKind::SplatItem
            | ExprKind::Error => {}
            ExprKind::Template(t) => t.for_each_expr(&mut f),
            ExprKind::Traversal(t) => {
                f(t.source());
                for step in t.steps() {
                    if let StepKind::Index(key) = step.kind() {
                        f(key);
                    }
                }
            }
            ExprKind::Splat(s) => {
                f(s.source());
                f(s.each());
            }
            ExprKind::Call(c) => c.args().iter().for_each(f),
            ExprKind::For(x) => {
                f(x.collection());
                if let Some(k) = x.key_expr() {
                    f(k);
                }
                f(x.value_expr());
                if let Some(c) = x.condition() {
                    f(c);
                }
            }
            ExprKind::Conditional(c) => {
                f(c.condition);
                f(c.then_expr);
                f(c.else_expr);
            }
            ExprKind::Binary(b) => {
                f(b.lhs);
                f(b.rhs);
            }
            ExprKind::Unary(u) => f(u.operand),
            ExprKind::Tuple(items) => items.iter().for_each(f),
            ExprKind::Object(items) => {
                for item in items {
                    f(item.key());
                    f(item.value());
                }
            }
            ExprKind::Parens(inner) => f(inner),
        }
    }
}

/// A numeric literal: its exact source text and its value.
#[derive(Clone, Copy, Debug)]
pub struct NumberRef<'t> {
    pub text: &'t str,
    pub value: NumberValue<'t>,
}

/// The value of a numeric literal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NumberValue<'t> {
    /// An integral value up to `u64::MAX` (also for `1e3` or `2.50e1`).
    Int(u64),
    /// A wider integral value (up to 256 bits).
    Big(&'t BigInt),
    /// A value with a fractional part, or an integral value written with
    /// an exponent or a fraction that does not fit in 256 bits (`1e100`);
    /// `f64` approximates it, the exact value is the literal's text.
    Fraction(f64),
    /// Not representable (a malformed lexeme, or an integer wider than 256
    /// bits); a diagnostic was reported.
    Invalid,
}

impl NumberValue<'_> {
    /// The integer value, exactly.
    pub fn to_bigint(self) -> Option<BigInt> {
        match self {
            NumberValue::Int(v) => Some(BigInt::from(v)),
            NumberValue::Big(v) => Some(v.clone()),
            NumberValue::Fraction(_) | NumberValue::Invalid => None,
        }
    }
}

/// A traversal: a source expression and a flat list of steps.
#[derive(Clone, Copy, Debug)]
pub struct TraversalRef<'t> {
    src: Src<'t>,
    source: ExprId,
    steps: Run,
}

impl<'t> TraversalRef<'t> {
    pub fn source(self) -> ExprRef<'t> {
        self.src.expr(self.source)
    }
    pub fn steps(self) -> List<'t, StepRef<'t>> {
        List::new(self.src, self.steps)
    }
}

/// One traversal step.
#[derive(Clone, Copy, Debug)]
pub struct StepRef<'t> {
    src: Src<'t>,
    node: &'t StepNode,
}

impl<'t> Element<'t> for StepRef<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(StepRef {
            src,
            node: src.tree.steps.get(index)?,
        })
    }
}

/// What a step is.
#[derive(Clone, Copy, Debug)]
pub enum StepKind<'t> {
    /// `.name` (keywords allowed).
    Attr(Ident<'t>),
    /// `[expr]`.
    Index(ExprRef<'t>),
    /// `.0`: the legacy index form; `value` is the decoded integer.
    LegacyIndex { text: &'t str, value: &'t BigInt },
}

impl<'t> StepRef<'t> {
    /// From the `.` or `[` to the end of the step.
    pub fn range(self) -> TextRange {
        self.node.range
    }
    pub fn kind(self) -> StepKind<'t> {
        static ZERO: std::sync::OnceLock<BigInt> = std::sync::OnceLock::new();
        match self.node.kind {
            StepNodeKind::Attr(name) => StepKind::Attr(Ident::new(self.src, name)),
            StepNodeKind::Index(expr) => StepKind::Index(self.src.expr(expr)),
            StepNodeKind::LegacyIndex { digits, value } => StepKind::LegacyIndex {
                text: self.src.slice(digits),
                value: match self.src.tree.bigs.get(value as usize) {
                    Some(v) => v,
                    None => ZERO.get_or_init(BigInt::default),
                },
            },
        }
    }
}

/// A splat: evaluate `each` for every element of `source`. `each` is rooted
/// at an [`ExprKind::SplatItem`].
#[derive(Clone, Copy, Debug)]
pub struct SplatRef<'t> {
    src: Src<'t>,
    node: &'t SplatNode,
}

impl<'t> SplatRef<'t> {
    pub fn source(self) -> ExprRef<'t> {
        self.src.expr(self.node.source)
    }
    pub fn kind(self) -> SplatKind {
        self.node.kind
    }
    /// The `.*` or `[*]` tokens.
    pub fn marker_range(self) -> TextRange {
        self.node.marker
    }
    pub fn each(self) -> ExprRef<'t> {
        self.src.expr(self.node.each)
    }
}

/// A function call.
#[derive(Clone, Copy, Debug)]
pub struct CallRef<'t> {
    src: Src<'t>,
    node: &'t CallNode,
}

impl<'t> CallRef<'t> {
    /// The full name, segments joined with `::` (`provider::ns::fn`).
    pub fn name(self) -> &'t str {
        self.src.text_of(self.node.name)
    }
    /// The range of the name (first segment to last).
    pub fn name_range(self) -> TextRange {
        self.node.name_range
    }
    /// The name's segments.
    pub fn segments(self) -> List<'t, Ident<'t>> {
        List::new(self.src, self.node.segments)
    }
    pub fn args(self) -> List<'t, ExprRef<'t>> {
        List::new(self.src, self.node.args)
    }
    /// The last argument is followed by `...`.
    pub fn expand_final(self) -> bool {
        self.node.expand_final
    }
    pub fn open_paren_range(self) -> TextRange {
        self.node.open_paren
    }
    /// The `)`; empty when the argument list has a syntax error (no `)`,
    /// or one found only by recovery), which the parser has reported.
    pub fn close_paren_range(self) -> TextRange {
        self.node.close_paren
    }
    /// Whether the argument list has a syntax error (already reported), so
    /// that its arguments are not the ones the author meant: checks of the
    /// call's arity and arguments would only repeat that error.
    pub fn args_broken(self) -> bool {
        self.node.close_paren.is_empty()
    }
}

/// `[for k, v in coll : value if cond]` /
/// `{for k, v in coll : key => value... if cond}`.
#[derive(Clone, Copy, Debug)]
pub struct ForRef<'t> {
    src: Src<'t>,
    node: &'t ForNode,
}

impl<'t> ForRef<'t> {
    pub fn kind(self) -> ForKind {
        self.node.kind
    }
    pub fn key_var(self) -> Option<Ident<'t>> {
        self.node.key_var.map(|r| Ident::new(self.src, r))
    }
    pub fn value_var(self) -> Ident<'t> {
        Ident::new(self.src, self.node.value_var)
    }
    pub fn collection(self) -> ExprRef<'t> {
        self.src.expr(self.node.collection)
    }
    /// Present for the object form.
    pub fn key_expr(self) -> Option<ExprRef<'t>> {
        self.node.key_expr.map(|id| self.src.expr(id))
    }
    pub fn value_expr(self) -> ExprRef<'t> {
        self.src.expr(self.node.value_expr)
    }
    /// `...` after the value (object form only).
    pub fn grouping(self) -> bool {
        self.node.grouping
    }
    pub fn condition(self) -> Option<ExprRef<'t>> {
        self.node.condition.map(|id| self.src.expr(id))
    }
}

/// `condition ? then_expr : else_expr`.
#[derive(Clone, Copy, Debug)]
pub struct ConditionalRef<'t> {
    pub condition: ExprRef<'t>,
    pub then_expr: ExprRef<'t>,
    pub else_expr: ExprRef<'t>,
}

/// `lhs op rhs`.
#[derive(Clone, Copy, Debug)]
pub struct BinaryRef<'t> {
    pub op: BinaryOp,
    pub op_range: TextRange,
    pub lhs: ExprRef<'t>,
    pub rhs: ExprRef<'t>,
}

/// `op operand`.
#[derive(Clone, Copy, Debug)]
pub struct UnaryRef<'t> {
    pub op: UnaryOp,
    pub op_range: TextRange,
    pub operand: ExprRef<'t>,
}

/// `key = value` or `key: value` in an object constructor.
#[derive(Clone, Copy, Debug)]
pub struct ObjectItemRef<'t> {
    src: Src<'t>,
    node: &'t ObjectItemNode,
}

impl<'t> Element<'t> for ObjectItemRef<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(ObjectItemRef {
            src,
            node: src.tree.object_items.get(index)?,
        })
    }
}

impl<'t> ObjectItemRef<'t> {
    pub fn key(self) -> ExprRef<'t> {
        self.src.expr(self.node.key)
    }
    pub fn value(self) -> ExprRef<'t> {
        self.src.expr(self.node.value)
    }
    pub fn range(self) -> TextRange {
        self.node.range
    }
    /// The key as a bare name (`name = …`, also `true`/`false`/`null`
    /// written bare), which HCL reads as the literal string.
    pub fn bare_key(self) -> Option<&'t str> {
        match self.key().kind() {
            ExprKind::Variable(ident) => Some(ident.name),
            ExprKind::Literal(Literal::Bool(true)) => Some("true"),
            ExprKind::Literal(Literal::Bool(false)) => Some("false"),
            ExprKind::Literal(Literal::Null) => Some("null"),
            _ => None,
        }
    }
    /// A key in parentheses is always evaluated, never a bare name.
    pub fn force_non_literal(self) -> bool {
        matches!(self.key().kind(), ExprKind::Parens(_))
    }
}

// ----------------------------------------------------------------------
// Templates
// ----------------------------------------------------------------------

/// Which kind of template.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TemplateKind<'t> {
    Quoted,
    /// `<<MARKER` or, with `flush`, `<<-MARKER`.
    Heredoc {
        marker: &'t str,
        flush: bool,
    },
    /// A whole input parsed with [`crate::parse_template`].
    Bare,
}

/// A template: literal text, interpolations and directives.
#[derive(Clone, Copy, Debug)]
pub struct TemplateRef<'t> {
    pub(crate) src: Src<'t>,
    pub(crate) node: &'t TemplateNode,
}

impl<'t> TemplateRef<'t> {
    pub fn kind(self) -> TemplateKind<'t> {
        match self.node.kind {
            TemplateNodeKind::Quoted => TemplateKind::Quoted,
            TemplateNodeKind::Heredoc { marker, flush } => TemplateKind::Heredoc {
                marker: self.src.slice(marker),
                flush,
            },
            TemplateNodeKind::Bare => TemplateKind::Bare,
        }
    }
    pub fn parts(self) -> List<'t, PartRef<'t>> {
        List::new(self.src, self.node.parts)
    }
    /// The expression of a template that is exactly one interpolation
    /// (`"${x}"`), which HCL evaluates to the expression's own value.
    pub fn wrapped_expr(self) -> Option<ExprRef<'t>> {
        let parts = self.parts();
        match (parts.len(), parts.first().map(PartRef::kind)) {
            (1, Some(Part::Interpolation(i))) => Some(i.expr()),
            _ => None,
        }
    }
    /// The text of a template without sequences (`""` when empty).
    pub fn literal_value(self) -> Option<&'t str> {
        let parts = self.parts();
        match (parts.len(), parts.first().map(PartRef::kind)) {
            (0, _) => Some(""),
            (1, Some(Part::Literal(lit))) => Some(lit.value()),
            _ => None,
        }
    }
    fn for_each_expr(self, f: &mut impl FnMut(ExprRef<'t>)) {
        parts_exprs(self.parts(), f);
    }
}

fn parts_exprs<'t>(parts: List<'t, PartRef<'t>>, f: &mut impl FnMut(ExprRef<'t>)) {
    // Directive nesting is bounded by the parser's depth limit.
    for part in parts {
        match part.kind() {
            Part::Literal(_) => {}
            Part::Interpolation(i) => f(i.expr()),
            Part::If(dir) => {
                f(dir.condition());
                parts_exprs(dir.then_parts(), f);
                if let Some(else_parts) = dir.else_parts() {
                    parts_exprs(else_parts, f);
                }
            }
            Part::For(dir) => {
                f(dir.collection());
                parts_exprs(dir.body(), f);
            }
        }
    }
}

/// One part of a template.
#[derive(Clone, Copy, Debug)]
pub struct PartRef<'t> {
    src: Src<'t>,
    node: &'t PartNode,
}

impl<'t> Element<'t> for PartRef<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(PartRef {
            src,
            node: src.tree.parts.get(index)?,
        })
    }
}

/// What a template part is.
#[derive(Clone, Copy, Debug)]
pub enum Part<'t> {
    Literal(TemplateLiteralRef<'t>),
    Interpolation(InterpolationRef<'t>),
    If(TemplateIfRef<'t>),
    For(TemplateForRef<'t>),
}

impl<'t> PartRef<'t> {
    pub fn range(self) -> TextRange {
        self.node.range
    }
    pub fn kind(self) -> Part<'t> {
        let src = self.src;
        let range = self.node.range;
        match self.node.kind {
            PartNodeKind::Literal(text) => Part::Literal(TemplateLiteralRef { src, text, range }),
            PartNodeKind::Interpolation { expr, strip } => Part::Interpolation(InterpolationRef {
                src,
                expr,
                strip,
                range,
            }),
            PartNodeKind::If(i) => match src.tree.template_ifs.get(i as usize) {
                Some(node) => Part::If(TemplateIfRef { src, node, range }),
                None => Part::Literal(TemplateLiteralRef {
                    src,
                    text: Text::Decoded { start: 0, len: 0 },
                    range,
                }),
            },
            PartNodeKind::For(i) => match src.tree.template_fors.get(i as usize) {
                Some(node) => Part::For(TemplateForRef { src, node, range }),
                None => Part::Literal(TemplateLiteralRef {
                    src,
                    text: Text::Decoded { start: 0, len: 0 },
                    range,
                }),
            },
        }
    }
}

/// Literal text of a template: escapes resolved, strip markers and `<<-`
/// indentation applied, NFC-normalised.
#[derive(Clone, Copy, Debug)]
pub struct TemplateLiteralRef<'t> {
    src: Src<'t>,
    text: Text,
    range: TextRange,
}

impl<'t> TemplateLiteralRef<'t> {
    pub fn value(self) -> &'t str {
        self.src.text_of(self.text)
    }
    pub fn range(self) -> TextRange {
        self.range
    }
}

/// `${ expr }`.
#[derive(Clone, Copy, Debug)]
pub struct InterpolationRef<'t> {
    src: Src<'t>,
    expr: ExprId,
    strip: Strip,
    range: TextRange,
}

impl<'t> InterpolationRef<'t> {
    pub fn expr(self) -> ExprRef<'t> {
        self.src.expr(self.expr)
    }
    pub fn strip(self) -> Strip {
        self.strip
    }
    pub fn range(self) -> TextRange {
        self.range
    }
}

/// `%{ if cond }…%{ else }…%{ endif }`.
#[derive(Clone, Copy, Debug)]
pub struct TemplateIfRef<'t> {
    src: Src<'t>,
    node: &'t TemplateIfNode,
    range: TextRange,
}

impl<'t> TemplateIfRef<'t> {
    pub fn condition(self) -> ExprRef<'t> {
        self.src.expr(self.node.condition)
    }
    pub fn then_parts(self) -> List<'t, PartRef<'t>> {
        List::new(self.src, self.node.then_parts)
    }
    pub fn else_parts(self) -> Option<List<'t, PartRef<'t>>> {
        self.node.else_parts.map(|run| List::new(self.src, run))
    }
    pub fn if_strip(self) -> Strip {
        self.node.if_strip
    }
    pub fn else_strip(self) -> Strip {
        self.node.else_strip
    }
    pub fn endif_strip(self) -> Strip {
        self.node.endif_strip
    }
    pub fn range(self) -> TextRange {
        self.range
    }
}

/// `%{ for k, v in coll }…%{ endfor }`.
#[derive(Clone, Copy, Debug)]
pub struct TemplateForRef<'t> {
    src: Src<'t>,
    node: &'t TemplateForNode,
    range: TextRange,
}

impl<'t> TemplateForRef<'t> {
    pub fn key_var(self) -> Option<Ident<'t>> {
        self.node.key_var.map(|r| Ident::new(self.src, r))
    }
    pub fn value_var(self) -> Ident<'t> {
        Ident::new(self.src, self.node.value_var)
    }
    pub fn collection(self) -> ExprRef<'t> {
        self.src.expr(self.node.collection)
    }
    pub fn body(self) -> List<'t, PartRef<'t>> {
        List::new(self.src, self.node.body)
    }
    pub fn for_strip(self) -> Strip {
        self.node.for_strip
    }
    pub fn endfor_strip(self) -> Strip {
        self.node.endfor_strip
    }
    pub fn range(self) -> TextRange {
        self.range
    }
}
