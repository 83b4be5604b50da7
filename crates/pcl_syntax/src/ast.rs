//! Typed syntax tree produced by the parser.
//!
//! Every node carries a `range` (byte offsets into the parsed text) and, where
//! it matters, decoded values: identifier names, block labels, template
//! literal text (escapes resolved, strip markers and `<<-` indentation
//! applied, NFC-normalised) and numbers (exact text plus a `BigInt` for
//! integers). The tree does not own trivia: the tokens of any node are
//! reachable through [`crate::Parse::tokens_in`] with the node's range, and
//! printing all tokens gives back the input byte for byte.
//!
//! Shapes follow the HCL native syntax closely but are simplified for
//! walkers: every postfix chain (`.name`, `[index]`, legacy `.0`) is one
//! [`ExprKind::Traversal`] with a flat list of [`Step`]s, and splats are
//! [`ExprKind::Splat`] nodes whose per-element expression is rooted at
//! [`ExprKind::SplatItem`].

use num_bigint::BigInt;
use pcl_diagnostics::TextRange;

/// A sequence of attributes and blocks: a whole file or a block's body.
#[derive(Clone, Debug, PartialEq)]
pub struct Body {
    pub items: Vec<BodyItem>,
    pub range: TextRange,
    /// Comments inside the body that attach to no item (after the last
    /// item, or separated from the next item by a blank line).
    pub dangling_comments: Vec<Comment>,
}

impl Body {
    pub fn items(&self) -> &[BodyItem] {
        &self.items
    }
    pub fn range(&self) -> TextRange {
        self.range
    }
    pub fn dangling_comments(&self) -> &[Comment] {
        &self.dangling_comments
    }
    /// The attributes of this body, in source order.
    pub fn attributes(&self) -> impl Iterator<Item = &Attribute> {
        self.items.iter().filter_map(|item| match item {
            BodyItem::Attribute(attr) => Some(attr),
            BodyItem::Block(_) => None,
        })
    }
    /// The blocks of this body, in source order.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        self.items.iter().filter_map(|item| match item {
            BodyItem::Block(block) => Some(&**block),
            BodyItem::Attribute(_) => None,
        })
    }
}

/// One item of a body. A block is boxed: it is larger than an attribute,
/// and most items are attributes.
#[derive(Clone, Debug, PartialEq)]
pub enum BodyItem {
    Attribute(Attribute),
    Block(Box<Block>),
}

impl BodyItem {
    pub fn range(&self) -> TextRange {
        match self {
            BodyItem::Attribute(attr) => attr.range,
            BodyItem::Block(block) => block.range,
        }
    }
    pub fn leading_comments(&self) -> &[Comment] {
        match self {
            BodyItem::Attribute(attr) => &attr.leading_comments,
            BodyItem::Block(block) => &block.leading_comments,
        }
    }
    pub fn trailing_comments(&self) -> &[Comment] {
        match self {
            BodyItem::Attribute(attr) => &attr.trailing_comments,
            BodyItem::Block(block) => &block.trailing_comments,
        }
    }
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

/// A comment attached to a node. `text` is the raw comment without its
/// terminating line break (delimiters included); `range` covers the same
/// bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Comment {
    pub kind: CommentKind,
    pub text: String,
    pub range: TextRange,
}

impl Comment {
    /// The comment text with its delimiters (`#`, `//`, `/*`, `*/`) removed.
    pub fn content(&self) -> &str {
        let text = self.text.as_str();
        match self.kind {
            CommentKind::Hash => text.strip_prefix('#').unwrap_or(text),
            CommentKind::DoubleSlash => text.strip_prefix("//").unwrap_or(text),
            CommentKind::Block => {
                let inner = text.strip_prefix("/*").unwrap_or(text);
                inner.strip_suffix("*/").unwrap_or(inner)
            }
        }
    }
}

/// An identifier with its (undecoded, un-normalised) name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: Name,
    pub range: TextRange,
}

/// The text of an identifier (also of a number literal and of template
/// literal text). Names of up to [`Name::INLINE`] bytes (nearly all of
/// them) are stored in place, so building and dropping a tree does
/// not allocate per identifier. Dereferences to `str`; compares, hashes,
/// prints and debug-prints exactly like the `str` it holds. Reading the
/// text is free in both representations: the inline one is a
/// [`smol_str::SmolStr`] (checked UTF-8 once, when it is built), the long
/// one a `Box<str>` (so a long `String` keeps its buffer).
#[derive(Clone)]
pub struct Name(NameRepr);

#[derive(Clone)]
enum NameRepr {
    /// Always inline: only built from texts of at most [`Name::INLINE`]
    /// bytes.
    Inline(smol_str::SmolStr),
    Heap(Box<str>),
}

impl Name {
    /// The longest name stored without a heap allocation, in bytes.
    pub const INLINE: usize = 23;

    pub fn new(text: &str) -> Name {
        if text.len() <= Name::INLINE {
            Name(NameRepr::Inline(smol_str::SmolStr::new_inline(text)))
        } else {
            Name(NameRepr::Heap(text.into()))
        }
    }

    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            NameRepr::Inline(text) => text.as_str(),
            NameRepr::Heap(text) => text,
        }
    }
}

impl Default for Name {
    fn default() -> Name {
        Name::new("")
    }
}

impl std::ops::Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl std::borrow::Borrow<str> for Name {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Name {
    #[inline]
    fn eq(&self, other: &Name) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Name {}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Name) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Name) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl std::hash::Hash for Name {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl std::fmt::Debug for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self.as_str(), f)
    }
}

impl From<&str> for Name {
    fn from(text: &str) -> Name {
        Name::new(text)
    }
}

impl From<String> for Name {
    fn from(text: String) -> Name {
        if text.len() <= Name::INLINE {
            Name::new(&text)
        } else {
            // Keeps the string's buffer (no copy).
            Name(NameRepr::Heap(text.into_boxed_str()))
        }
    }
}

impl From<Box<str>> for Name {
    fn from(text: Box<str>) -> Name {
        if text.len() <= Name::INLINE {
            Name::new(&text)
        } else {
            Name(NameRepr::Heap(text))
        }
    }
}

impl From<Name> for String {
    fn from(name: Name) -> String {
        name.as_str().to_string()
    }
}

impl Ident {
    pub fn as_str(&self) -> &str {
        &self.name
    }
}

/// `name = expr`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: Ident,
    pub expr: Expr,
    /// The `=` token.
    pub equals_range: TextRange,
    pub range: TextRange,
    pub leading_comments: Vec<Comment>,
    pub trailing_comments: Vec<Comment>,
}

impl Attribute {
    pub fn name(&self) -> &str {
        &self.name.name
    }
    pub fn name_range(&self) -> TextRange {
        self.name.range
    }
    pub fn expr(&self) -> &Expr {
        &self.expr
    }
    pub fn range(&self) -> TextRange {
        self.range
    }
    pub fn leading_comments(&self) -> &[Comment] {
        &self.leading_comments
    }
    pub fn trailing_comments(&self) -> &[Comment] {
        &self.trailing_comments
    }
}

/// `type label* { body }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub type_name: Ident,
    pub labels: Vec<Label>,
    pub body: Body,
    pub open_brace_range: TextRange,
    /// Empty (at the end of the block) when the closing brace is missing.
    pub close_brace_range: TextRange,
    pub range: TextRange,
    pub leading_comments: Vec<Comment>,
    pub trailing_comments: Vec<Comment>,
}

impl Block {
    pub fn type_name(&self) -> &str {
        &self.type_name.name
    }
    pub fn type_range(&self) -> TextRange {
        self.type_name.range
    }
    pub fn labels(&self) -> impl Iterator<Item = &Label> {
        self.labels.iter()
    }
    pub fn body(&self) -> &Body {
        &self.body
    }
    pub fn range(&self) -> TextRange {
        self.range
    }
    pub fn leading_comments(&self) -> &[Comment] {
        &self.leading_comments
    }
    pub fn trailing_comments(&self) -> &[Comment] {
        &self.trailing_comments
    }
}

/// A block label: an identifier or a quoted string (escapes resolved, not
/// NFC-normalised, as HCL does for labels).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    pub value: Name,
    pub quoted: bool,
    pub range: TextRange,
}

impl Label {
    pub fn value(&self) -> &str {
        &self.value
    }
    pub fn range(&self) -> TextRange {
        self.range
    }
}

/// An expression: a kind and a byte range.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub range: TextRange,
}

impl Expr {
    /// An expression node. Its range is widened to cover its direct
    /// children (error recovery may leave a child past the end the parser
    /// computed), so every node's range contains its children's ranges.
    pub fn new(kind: ExprKind, range: TextRange) -> Expr {
        let range = cover_kind(&kind, range);
        Expr { kind, range }
    }
    /// A node without children (a literal, a variable, the splat item or
    /// an error): nothing to cover, so [`Expr::new`]'s covering (and its
    /// call) is skipped.
    #[inline]
    pub(crate) fn leaf(kind: ExprKind, range: TextRange) -> Expr {
        debug_assert!(!has_expr_children(&kind));
        Expr { kind, range }
    }
    pub fn kind(&self) -> &ExprKind {
        &self.kind
    }
    pub fn range(&self) -> TextRange {
        self.range
    }
    /// True for the placeholder produced at a syntax error.
    pub fn is_error(&self) -> bool {
        matches!(self.kind, ExprKind::Error)
    }
}

/// Every expression form.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A number, `true`, `false` or `null`.
    Literal(Literal),
    /// A quoted string, a heredoc, or (for `parse_template`) a bare template.
    Template(Box<Template>),
    /// A root variable reference (`foo`). Followed by steps it becomes the
    /// `source` of a [`ExprKind::Traversal`].
    Variable(Ident),
    /// `source` followed by `.name`, `.0` and `[expr]` steps (a scope
    /// traversal when `source` is a [`ExprKind::Variable`], relative
    /// otherwise).
    Traversal(Box<Traversal>),
    /// `source.*…` or `source[*]…`.
    Splat(Box<Splat>),
    /// The per-element placeholder at the root of a splat's `each`
    /// expression (hclsyntax's `AnonSymbolExpr`); its range is empty.
    SplatItem,
    /// `name(args)` or `ns::name(args...)`.
    Call(Box<Call>),
    /// `[for …]` or `{for …}`.
    For(Box<ForExpr>),
    /// `cond ? then : otherwise`.
    Conditional(Box<Conditional>),
    Binary(Box<Binary>),
    Unary(Box<Unary>),
    /// `[a, b, …]`.
    Tuple(Vec<Expr>),
    /// `{ key = value, … }`.
    Object(Vec<ObjectItem>),
    /// `( expr )`.
    Parens(Box<Expr>),
    /// A placeholder where a syntax error was reported.
    Error,
}

/// A literal value.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// Boxed: a number (its text and exact value) is the largest leaf, and
    /// keeping it out of line makes every [`Expr`] 16 bytes smaller.
    Number(Box<Number>),
    Bool(bool),
    Null,
}

/// A numeric literal: its exact source text and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Number {
    /// Stored in place when short (nearly always), like an identifier.
    pub text: Name,
    pub value: NumberValue,
}

/// The value of a numeric literal.
#[derive(Clone, Debug, PartialEq)]
pub enum NumberValue {
    /// An integral value held exactly (also for `1e3` or `2.50e1`).
    Int(BigInt),
    /// A value with a fractional part, or an integral value written with
    /// an exponent or a fraction that does not fit in 256 bits (`1e100`);
    /// `f64` approximates it, the exact value is the literal's text.
    Fraction(f64),
    /// Not representable (a malformed lexeme, or an integer wider than 256
    /// bits); a diagnostic was reported.
    Invalid,
}

/// A traversal: a source expression and a flat list of steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Traversal {
    pub source: Expr,
    pub steps: Box<[Step]>,
}

/// One traversal step.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub kind: StepKind,
    /// From the `.` or `[` to the end of the step.
    pub range: TextRange,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StepKind {
    /// `.name` (keywords allowed).
    Attr(Ident),
    /// `[expr]`.
    Index(Expr),
    /// `.0`: the legacy index form; `value` is the decoded integer.
    LegacyIndex { text: Name, value: BigInt },
}

/// Which splat operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SplatKind {
    /// `.*`: only the following `.name` / `.0` steps apply per element.
    Attr,
    /// `[*]`: the whole rest of the postfix chain applies per element.
    Full,
}

/// A splat: evaluate `each` for every element of `source`. `each` is rooted
/// at an [`ExprKind::SplatItem`].
#[derive(Clone, Debug, PartialEq)]
pub struct Splat {
    pub source: Expr,
    pub kind: SplatKind,
    /// The `.*` or `[*]` tokens.
    pub marker_range: TextRange,
    pub each: Expr,
}

/// A function call.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The full name, segments joined with `::` (`provider::ns::fn`).
    pub name: Box<str>,
    /// The range of the name (first segment to last).
    pub name_range: TextRange,
    /// The name's segments.
    pub segments: Vec<Ident>,
    pub args: Vec<Expr>,
    /// The last argument is followed by `...`.
    pub expand_final: bool,
    pub open_paren_range: TextRange,
    /// The `)`; empty when the argument list has a syntax error (no `)`,
    /// or one found only by recovery), which the parser has reported.
    pub close_paren_range: TextRange,
}

impl Call {
    /// Whether the argument list has a syntax error (already reported), so
    /// that its arguments are not the ones the author meant: checks of the
    /// call's arity and arguments would only repeat that error.
    pub fn args_broken(&self) -> bool {
        self.close_paren_range.is_empty()
    }
}

/// `[for k, v in coll : value if cond]` / `{for k, v in coll : key => value... if cond}`.
#[derive(Clone, Debug, PartialEq)]
pub struct ForExpr {
    pub kind: ForKind,
    pub key_var: Option<Ident>,
    pub value_var: Ident,
    pub collection: Expr,
    /// Present for the object form.
    pub key_expr: Option<Expr>,
    pub value_expr: Expr,
    /// `...` after the value (object form only).
    pub grouping: bool,
    pub condition: Option<Expr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForKind {
    Tuple,
    Object,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Conditional {
    pub condition: Expr,
    pub then_expr: Expr,
    pub else_expr: Expr,
}

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
    /// Binding power: 1 (`||`) to 6 (`*` `/` `%`); all left-associative.
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

#[derive(Clone, Debug, PartialEq)]
pub struct Binary {
    pub op: BinaryOp,
    pub op_range: TextRange,
    pub lhs: Expr,
    pub rhs: Expr,
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

#[derive(Clone, Debug, PartialEq)]
pub struct Unary {
    pub op: UnaryOp,
    pub op_range: TextRange,
    pub operand: Expr,
}

/// `key = value` or `key: value` in an object constructor.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectItem {
    /// Any expression; a bare identifier (a [`ExprKind::Variable`]) means a
    /// literal name, a parenthesised key is always evaluated.
    pub key: Expr,
    pub value: Expr,
    pub range: TextRange,
}

impl ObjectItem {
    /// The key written as a bare identifier (`{ name = … }`, including
    /// `true`, `false` and `null`), if it is one.
    pub fn bare_key(&self) -> Option<&str> {
        match &self.key.kind {
            ExprKind::Variable(ident) => Some(&ident.name),
            ExprKind::Literal(Literal::Bool(true)) => Some("true"),
            ExprKind::Literal(Literal::Bool(false)) => Some("false"),
            ExprKind::Literal(Literal::Null) => Some("null"),
            _ => None,
        }
    }
    /// The key was parenthesised, forcing evaluation (`{ (k) = … }`).
    pub fn force_non_literal(&self) -> bool {
        matches!(self.key.kind, ExprKind::Parens(_))
    }
}

/// Which syntax a template was written in.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TemplateKind {
    /// `"…"`.
    Quoted,
    /// `<<MARKER` (`flush` for `<<-MARKER`).
    Heredoc { marker: Box<str>, flush: bool },
    /// A whole input parsed with `parse_template`.
    Bare,
}

/// A template: literal text, interpolations and directives.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    pub kind: TemplateKind,
    pub parts: Box<[TemplatePart]>,
}

impl Template {
    /// A template that is exactly one interpolation (`"${x}"`): its value is
    /// the interpolated value, unconverted (hclsyntax's `TemplateWrapExpr`).
    pub fn wrapped_expr(&self) -> Option<&Expr> {
        match &*self.parts {
            [TemplatePart::Interpolation(interp)] => Some(&interp.expr),
            _ => None,
        }
    }
    /// The value when the template is nothing but literal text.
    pub fn literal_value(&self) -> Option<&str> {
        match &*self.parts {
            [] => Some(""),
            [TemplatePart::Literal(lit)] => Some(lit.value.as_str()),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum TemplatePart {
    Literal(TemplateLiteral),
    Interpolation(Interpolation),
    If(Box<TemplateIf>),
    For(Box<TemplateFor>),
}

impl TemplatePart {
    pub fn range(&self) -> TextRange {
        match self {
            TemplatePart::Literal(lit) => lit.range,
            TemplatePart::Interpolation(interp) => interp.range,
            TemplatePart::If(dir) => dir.range,
            TemplatePart::For(dir) => dir.range,
        }
    }
}

/// Literal text with its decoded value (escapes resolved, strip markers and
/// flush indentation applied, NFC-normalised). Adjacent literal tokens are
/// merged into one part. The value is a [`Name`]: most literal text is
/// short and then needs no allocation of its own.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TemplateLiteral {
    pub value: Name,
    pub range: TextRange,
}

/// Strip markers of a `${…}` / `%{…}` sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Strip {
    /// `${~` / `%{~`: trim whitespace before.
    pub left: bool,
    /// `~}`: trim whitespace after.
    pub right: bool,
}

/// `${ expr }`.
#[derive(Clone, Debug, PartialEq)]
pub struct Interpolation {
    pub expr: Expr,
    pub strip: Strip,
    pub range: TextRange,
}

/// `%{ if c }…%{ else }…%{ endif }`.
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateIf {
    pub condition: Expr,
    pub then_parts: Vec<TemplatePart>,
    pub else_parts: Option<Vec<TemplatePart>>,
    /// Strip markers of the `if`, `else` (default when absent) and `endif` directives.
    pub if_strip: Strip,
    pub else_strip: Strip,
    pub endif_strip: Strip,
    pub range: TextRange,
}

/// `%{ for k, v in coll }…%{ endfor }`.
#[derive(Clone, Debug, PartialEq)]
pub struct TemplateFor {
    pub key_var: Option<Ident>,
    pub value_var: Ident,
    pub collection: Expr,
    pub body: Vec<TemplatePart>,
    pub for_strip: Strip,
    pub endfor_strip: Strip,
    pub range: TextRange,
}

// ----------------------------------------------------------------------
// Range containment
// ----------------------------------------------------------------------
//
// Every node's range covers its children's. Nodes are built bottom-up, so
// each constructor only looks at its direct children (no recursion): the
// parsers build expressions with [`Expr::new`] and call `covered()` on the
// other nodes they build.

/// `TextRange::cover`, inlined: it runs for every node built, and the
/// `pcl_diagnostics` method is not inlined across crates.
trait CoverFast {
    fn cover_fast(self, other: TextRange) -> TextRange;
}

impl CoverFast for TextRange {
    #[inline]
    fn cover_fast(self, other: TextRange) -> TextRange {
        TextRange {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// `range` widened to cover `child` (the splat placeholder's empty range
/// sits wherever the parser put it and is left out).
fn cover_expr(range: TextRange, child: &Expr) -> TextRange {
    if matches!(child.kind, ExprKind::SplatItem) {
        range
    } else {
        range.cover_fast(child.range)
    }
}

fn cover_parts(range: TextRange, parts: &[TemplatePart]) -> TextRange {
    parts
        .iter()
        .fold(range, |acc, part| acc.cover_fast(part.range()))
}

fn cover_kind(kind: &ExprKind, range: TextRange) -> TextRange {
    match kind {
        ExprKind::Literal(_) | ExprKind::Variable(_) | ExprKind::SplatItem | ExprKind::Error => {
            range
        }
        ExprKind::Template(template) => cover_parts(range, &template.parts),
        ExprKind::Traversal(trav) => {
            let range = cover_expr(range, &trav.source);
            trav.steps
                .iter()
                .fold(range, |acc, step| acc.cover_fast(step.range))
        }
        ExprKind::Splat(splat) => cover_expr(
            cover_expr(range, &splat.source).cover_fast(splat.marker_range),
            &splat.each,
        ),
        ExprKind::Call(call) => call
            .args
            .iter()
            .fold(range.cover_fast(call.name_range), cover_expr),
        ExprKind::For(for_expr) => {
            let mut range = cover_expr(range, &for_expr.collection);
            if let Some(key) = &for_expr.key_expr {
                range = cover_expr(range, key);
            }
            range = cover_expr(range, &for_expr.value_expr);
            if let Some(cond) = &for_expr.condition {
                range = cover_expr(range, cond);
            }
            range
        }
        ExprKind::Conditional(cond) => cover_expr(
            cover_expr(cover_expr(range, &cond.condition), &cond.then_expr),
            &cond.else_expr,
        ),
        ExprKind::Binary(bin) => cover_expr(
            cover_expr(range, &bin.lhs).cover_fast(bin.op_range),
            &bin.rhs,
        ),
        ExprKind::Unary(un) => cover_expr(range.cover_fast(un.op_range), &un.operand),
        ExprKind::Tuple(items) => items.iter().fold(range, cover_expr),
        ExprKind::Object(items) => items
            .iter()
            .fold(range, |acc, item| acc.cover_fast(item.range)),
        ExprKind::Parens(inner) => cover_expr(range, inner),
    }
}

impl Body {
    pub(crate) fn covered(mut self) -> Body {
        self.range = self
            .items
            .iter()
            .fold(self.range, |acc, item| acc.cover_fast(item.range()));
        self
    }
}

impl Attribute {
    pub(crate) fn covered(mut self) -> Attribute {
        self.range = cover_expr(
            self.range
                .cover_fast(self.name.range)
                .cover_fast(self.equals_range),
            &self.expr,
        );
        self
    }
}

impl Block {
    pub(crate) fn covered(mut self) -> Block {
        let range = self
            .labels
            .iter()
            .fold(self.range.cover_fast(self.type_name.range), |acc, label| {
                acc.cover_fast(label.range)
            });
        self.range = range
            .cover_fast(self.body.range)
            .cover_fast(self.open_brace_range)
            .cover_fast(self.close_brace_range);
        self
    }
}

impl Step {
    pub(crate) fn covered(mut self) -> Step {
        if let StepKind::Index(index) = &self.kind {
            self.range = cover_expr(self.range, index);
        }
        self
    }
}

impl ObjectItem {
    pub(crate) fn covered(mut self) -> ObjectItem {
        self.range = cover_expr(cover_expr(self.range, &self.key), &self.value);
        self
    }
}

impl Interpolation {
    pub(crate) fn covered(mut self) -> Interpolation {
        self.range = cover_expr(self.range, &self.expr);
        self
    }
}

impl TemplateIf {
    pub(crate) fn covered(mut self) -> TemplateIf {
        let range = cover_parts(cover_expr(self.range, &self.condition), &self.then_parts);
        self.range = match &self.else_parts {
            Some(parts) => cover_parts(range, parts),
            None => range,
        };
        self
    }
}

impl TemplateFor {
    pub(crate) fn covered(mut self) -> TemplateFor {
        self.range = cover_parts(cover_expr(self.range, &self.collection), &self.body);
        self
    }
}

/// Dropping iteratively: a long operator chain (`1 + 1 + … + 1`) is a deep
/// left-leaning tree, and the default recursive drop would overflow the
/// stack. Children are moved onto a heap stack before their parent is
/// dropped, so every `Expr` dropped by the compiler-generated code is
/// shallow.
impl Drop for Expr {
    /// Inlined into the drop glue of every node holding an `Expr`: a leaf
    /// (most nodes) costs one check, no call.
    #[inline]
    fn drop(&mut self) {
        if has_expr_children(&self.kind) {
            drop_children(self);
        }
    }
}

/// Drops the children of `expr` (which has some): recursively while
/// shallow, with an explicit stack beyond [`RECURSIVE_DROP_LIMIT`].
#[inline(never)]
fn drop_children(expr: &mut Expr) {
    let kind = std::mem::replace(&mut expr.kind, ExprKind::Error);
    let depth = DROP_DEPTH.with(|d| {
        let value = d.get() + 1;
        d.set(value);
        value
    });
    if depth < RECURSIVE_DROP_LIMIT {
        // Shallow enough: let the children drop recursively (no heap).
        drop(kind);
    } else {
        let mut stack = vec![kind];
        while let Some(mut kind) = stack.pop() {
            for_each_child(&mut kind, &mut |child| {
                if has_expr_children(&child.kind) {
                    stack.push(std::mem::replace(&mut child.kind, ExprKind::Error));
                }
            });
        }
    }
    DROP_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
}

/// Nested drops beyond this depth switch to the explicit stack.
const RECURSIVE_DROP_LIMIT: usize = 64;

thread_local! {
    static DROP_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn has_expr_children(kind: &ExprKind) -> bool {
    !matches!(
        kind,
        ExprKind::Literal(_) | ExprKind::Variable(_) | ExprKind::SplatItem | ExprKind::Error
    )
}

/// Calls `f` on every direct child expression of `kind` (template parts
/// included, directive bodies recursively; those nest at most
/// [`crate::MAX_NESTING_DEPTH`] deep).
pub fn for_each_child(kind: &mut ExprKind, f: &mut dyn FnMut(&mut Expr)) {
    match kind {
        ExprKind::Literal(_) | ExprKind::Variable(_) | ExprKind::SplatItem | ExprKind::Error => {}
        ExprKind::Template(t) => parts_children(&mut t.parts, f),
        ExprKind::Traversal(t) => {
            f(&mut t.source);
            for step in &mut t.steps {
                if let StepKind::Index(key) = &mut step.kind {
                    f(key);
                }
            }
        }
        ExprKind::Splat(s) => {
            f(&mut s.source);
            f(&mut s.each);
        }
        ExprKind::Call(c) => c.args.iter_mut().for_each(f),
        ExprKind::For(x) => {
            f(&mut x.collection);
            if let Some(k) = &mut x.key_expr {
                f(k);
            }
            f(&mut x.value_expr);
            if let Some(c) = &mut x.condition {
                f(c);
            }
        }
        ExprKind::Conditional(c) => {
            f(&mut c.condition);
            f(&mut c.then_expr);
            f(&mut c.else_expr);
        }
        ExprKind::Binary(b) => {
            f(&mut b.lhs);
            f(&mut b.rhs);
        }
        ExprKind::Unary(u) => f(&mut u.operand),
        ExprKind::Tuple(items) => items.iter_mut().for_each(f),
        ExprKind::Object(items) => {
            for item in items {
                f(&mut item.key);
                f(&mut item.value);
            }
        }
        ExprKind::Parens(inner) => f(inner),
    }
}

fn parts_children(parts: &mut [TemplatePart], f: &mut dyn FnMut(&mut Expr)) {
    for part in parts {
        match part {
            TemplatePart::Literal(_) => {}
            TemplatePart::Interpolation(i) => f(&mut i.expr),
            TemplatePart::If(dir) => {
                f(&mut dir.condition);
                parts_children(&mut dir.then_parts, f);
                if let Some(else_parts) = &mut dir.else_parts {
                    parts_children(else_parts, f);
                }
            }
            TemplatePart::For(dir) => {
                f(&mut dir.collection);
                parts_children(&mut dir.body, f);
            }
        }
    }
}
