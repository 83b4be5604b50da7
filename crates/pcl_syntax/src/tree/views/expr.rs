//! Views of expressions: [`ExprRef`], its [`ExprKind`] and the views of
//! each form (numbers, traversals and steps, splats, calls, `for`
//! expressions, operators, object items).

use num_bigint::BigInt;
use pcl_diagnostics::TextRange;

use super::*;
use crate::tree::store;

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
        self.src.tree.expr_range(self.id)
    }
    /// True for the placeholder produced at a syntax error.
    pub fn is_error(self) -> bool {
        self.src.tree.is_error_expr(self.id)
    }
    /// The source text of this expression.
    pub fn text(self) -> &'t str {
        self.src.slice(self.range())
    }
    pub fn kind(self) -> ExprKind<'t> {
        let src = self.src;
        let tree = src.tree;
        let (kind, range) = tree.expr_node(self.id, src.text);
        let number = |value| {
            ExprKind::Literal(Literal::Number(NumberRef {
                text: src.slice(range),
                value,
            }))
        };
        match kind {
            ExprNodeKind::Int { lo, hi } => number(NumberValue::Int(store::int_value(lo, hi))),
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
                Some(node) => ExprKind::Template(TemplateRef { src, node: *node }),
                None => ExprKind::Error,
            },
            ExprNodeKind::PlainString(range) => ExprKind::Template(TemplateRef::plain(src, range)),
            ExprNodeKind::Variable => ExprKind::Variable(Ident::new(src, range)),
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
        match self.node.kind(self.src.tree) {
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
