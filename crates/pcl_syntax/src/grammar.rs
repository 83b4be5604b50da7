//! The chumsky grammar: significant tokens (see `newlines.rs`; the input
//! is their indices in the full token vector) → [`crate::ast`] plus
//! diagnostics.
//!
//! Production names follow `grammar/pcl.ebnf`. Productions never fail
//! once they have committed: a syntax error is reported into the parser
//! state ([`St`]) and produces an `Error` node, and hand-made recovery
//! parsers (`recover_to`, `recover_line`, `skip_group`) skip the rest of
//! the broken construct, so one mistake gives one diagnostic and parsing
//! resumes at the next body item. The state's `recovering` flag silences
//! follow-up errors until the next body item starts.
//!
//! Depth: every nesting production runs under [`nested`], which counts
//! levels in the state and, at [`MAX_NESTING_DEPTH`], reports
//! `nesting-too-deep` and skips the balanced group without recursion.
//! chumsky's `recursive` grows the stack with `stacker` as needed.
//!
//! Speed: alternatives are chosen by the next token's kind inside
//! `custom` parsers (no `rewind` look-ahead parsers, no `choice` that
//! tries each branch in turn); a failing branch is rewound exactly as
//! `choice`/`repeated` would. Binary operators are parsed by one
//! precedence-climbing loop ([`climb`]) rather than a `foldl` per level,
//! and repetitions push straight into the node's `Vec`. Unary and postfix
//! expressions are plain functions called from that loop; an identifier,
//! number, plain string or `name.attr…` traversal followed by a token that
//! ends an expression is built at once ([`simple_atom`], tried by [`expr`] before the recursive
//! parser). Every such shortcut builds exactly the node (and consumes
//! exactly the tokens) the full descent would.
//!
//! The parsers are built once per thread (a chumsky [`Cache`]).

use chumsky::cache::{Cache, Cached};
use chumsky::error::EmptyErr;
use chumsky::extra;
use chumsky::input::InputRef;
use chumsky::inspector::SimpleState;
use chumsky::prelude::*;
use pcl_diagnostics::{Code, Diagnostic, FileId, Span, TextRange};

use crate::ast::*;
use crate::codes;
use crate::comments;
use crate::lexer::ByteSet;
use crate::literal::{self, NumberError};
use crate::newlines::{item_starts_after, significant_tokens, Sig};
use crate::template::{finish_parts, finish_plain, Flat, FlatFor, Sink};
use crate::token::{Token, TokenKind as K, Tokens};
use crate::MAX_NESTING_DEPTH;

/// The grammar's input: the significant tokens.
type In<'s> = &'s [u32];
/// The parser state.
pub(crate) struct St<'s> {
    file: FileId,
    text: &'s str,
    tokens: &'s Tokens,
    /// The grammar's input (indices into `tokens`), for looking one
    /// token past the next.
    sigs: &'s [u32],
    /// The indices of every comment token, in order.
    comments: &'s [u32],
    diags: Vec<Diagnostic>,
    /// How many of `diags` (the first ones, in input order) are the
    /// lexer's error tokens: a syntax error found at one of them is the
    /// same problem, already reported.
    lexer_errors: usize,
    recovering: bool,
    depth: usize,
    depth_reported: bool,
    depth_of_blocks: usize,
    /// Where the current body item starts (its column is computed only
    /// when recovery needs it).
    item_start: Option<u32>,
    /// End offset of the last consumed token.
    last_end: u32,
    /// Stacks the lists under construction push their elements onto.
    scratch: Scratch,
    /// The flat parts of the templates under construction: each
    /// `template_parts` pushes its run above the enclosing template's, and
    /// [`finish`] takes it off (see [`Scratch`]).
    flats: Vec<Flat<'s>>,
    /// The end offset of the quoted literal at the top of `flats` when
    /// every literal token merged into it has a non-whitespace character,
    /// so the next such token can be merged into it at once (see
    /// [`push_quoted_literal`]).
    solid_literal_end: Option<u32>,
}

/// Per-parse scratch stacks. A list being built (a body's items, an
/// object's items, a tuple's elements, a call's arguments, a block's
/// labels) pushes its
/// elements onto the stack of their type, above whatever the enclosing
/// lists have pushed, and at its end moves its own run into an exact-size
/// `Vec` ([`take_run`]): one allocation per list, with no growth and no
/// shrinking. A nested list takes its run before the enclosing one pushes
/// again, and a list that fails takes (and drops) its run too, so each
/// run is exactly one list's elements.
#[derive(Default)]
struct Scratch {
    items: Vec<BodyItem>,
    /// A postfix chain's `.name` / `[index]` steps (see [`Chain`]).
    steps: Vec<Step>,
    objects: Vec<ObjectItem>,
    exprs: Vec<Expr>,
    labels: Vec<Label>,
}

/// The elements pushed onto `stack` since it had `base` elements, as an
/// exact-size `Vec`.
fn take_run<T>(stack: &mut Vec<T>, base: usize) -> Vec<T> {
    let base = base.min(stack.len());
    if base == 0 && stack.len() >= TAKE_WHOLE_STACK {
        // A long run that is the whole stack (a list of 100,000 items):
        // the stack's buffer becomes the list, instead of the list being
        // a copy while the stack keeps its pages for the rest of the parse.
        let mut run = std::mem::take(stack);
        run.shrink_to_fit();
        return run;
    }
    stack.drain(base..).collect()
}

/// The length from which [`take_run`] hands a whole stack over instead of
/// copying it (shorter runs keep the stack's buffer for reuse).
const TAKE_WHOLE_STACK: usize = 1024;
type Ex<'s> = extra::Full<EmptyErr, SimpleState<St<'s>>, ()>;
type Inp<'s, 'p> = InputRef<'s, 'p, In<'s>, Ex<'s>>;
type BodyRec<'s> = Recursive<chumsky::recursive::Direct<'s, 's, In<'s>, Body, Ex<'s>>>;

impl<'s> St<'s> {
    fn slice(&self, range: TextRange) -> &'s str {
        self.text.get(range.to_usize()).unwrap_or("")
    }
    /// Reports an error. Every syntax diagnostic of a non-empty input
    /// covers at least one byte: an empty range (an error at the end of
    /// the input, where nothing follows) is widened by [`St::nonempty`].
    ///
    /// An error at a token the lexer already reported (an invalid
    /// character, a `;`, …) is not reported again: it is the same problem.
    fn error(&mut self, code: Code, range: TextRange, message: impl Into<String>) {
        let range = self.nonempty(range);
        let lexer = self.diags.get(..self.lexer_errors).unwrap_or_default();
        if lexer
            .binary_search_by_key(&range.start, |d| d.span.range.start)
            .is_ok()
        {
            return;
        }
        self.diags.push(Diagnostic::error(
            code,
            Span::new(self.file, range),
            message,
        ));
    }
    /// `range`, or when it is empty, the last non-trivia token ending at
    /// or before it (what the error comes after: `re` in `re⟨EOF⟩`), else
    /// the first such token after it, else the first character.
    fn nonempty(&self, range: TextRange) -> TextRange {
        if !range.is_empty() || self.text.is_empty() {
            return range;
        }
        let solid = |t: &Token| !t.kind.is_trivia() && t.kind != K::Newline;
        let split = self.tokens.count_ending_by(range.start);
        let before = self.tokens.iter_back(split).find(solid);
        let after = || self.tokens.iter_from(split).find(solid);
        match before.or_else(after) {
            Some(token) => token.range,
            None => {
                let first = self.text.chars().next().map_or(1, char::len_utf8);
                TextRange::from_usize(0..first)
            }
        }
    }
    fn error_r(&mut self, code: Code, range: TextRange, message: impl Into<String>) {
        if !self.recovering {
            self.error(code, range, message);
        }
        self.recovering = true;
    }
    fn ident_of(&self, sig: Sig) -> Ident {
        Ident {
            name: self.slice(sig.range).into(),
            range: sig.range,
        }
    }
    fn eof(&self) -> TextRange {
        TextRange::empty(self.text.len() as u32)
    }
    fn range_from(&self, start: u32) -> TextRange {
        TextRange::new(start, self.last_end.max(start))
    }
    fn column_of(&self, offset: u32) -> usize {
        let before = self.text.get(..offset as usize).unwrap_or("");
        match before.rfind('\n') {
            Some(idx) => before.len() - idx - 1,
            None => before.len(),
        }
    }
    fn item_starts_after(&self, sig: Sig) -> bool {
        self.item_start.is_some_and(|start| {
            let col = self.column_of(start);
            item_starts_after(self.text, self.tokens, self.token_index(sig), col)
        })
    }
    /// The index of `sig`'s token in the full token vector (no two tokens
    /// start at the same offset).
    fn token_index(&self, sig: Sig) -> usize {
        sig.idx as usize
    }
    /// The significant token at `idx` in the full token vector, as the
    /// grammar sees it: a line comment (only significant ones are kept)
    /// stands for its line break.
    fn sig(&self, idx: u32) -> Sig {
        match self.tokens.get(idx as usize) {
            Some(token) => Sig {
                kind: match token.kind {
                    K::HashComment | K::SlashComment => K::Newline,
                    kind => kind,
                },
                range: token.range,
                idx,
            },
            None => Sig {
                kind: K::Invalid,
                range: self.eof(),
                idx,
            },
        }
    }
    /// `self.sig(idx).kind`, without the range.
    fn sig_kind(&self, idx: u32) -> K {
        match self.tokens.kind(idx as usize) {
            Some(K::HashComment | K::SlashComment) => K::Newline,
            Some(kind) => kind,
            None => K::Invalid,
        }
    }
}

// ----------------------------------------------------------------------
// Token-level helpers (used inside `custom` parsers)
// ----------------------------------------------------------------------

fn st<'s, 'a>(inp: &'a mut Inp<'s, '_>) -> &'a mut St<'s> {
    &mut inp.state().0
}

/// The next significant token, not consumed.
fn peek(inp: &mut Inp<'_, '_>) -> Option<Sig> {
    let idx = inp.peek()?;
    Some(st(inp).sig(idx))
}

/// Consumes the next significant token (see [`bump`], which also records
/// its end).
fn next(inp: &mut Inp<'_, '_>) -> Option<Sig> {
    let idx = inp.next()?;
    Some(st(inp).sig(idx))
}

fn peek_kind(inp: &mut Inp<'_, '_>) -> Option<K> {
    let idx = inp.peek()?;
    Some(st(inp).sig_kind(idx))
}

/// The kind of the token after the next one (neither consumed).
fn peek2_kind(inp: &mut Inp<'_, '_>) -> Option<K> {
    let cursor = *inp.cursor().inner();
    let s = st(inp);
    let idx = *s.sigs.get(cursor + 1)?;
    Some(s.sig_kind(idx))
}

/// The `n`th token after the next one (`n` = 0: the next), not consumed.
fn peek_nth(inp: &mut Inp<'_, '_>, n: usize) -> Option<Sig> {
    let cursor = *inp.cursor().inner();
    let s = st(inp);
    let idx = *s.sigs.get(cursor + n)?;
    Some(s.sig(idx))
}

/// Can a token of this kind (or the end) not continue an expression?
fn ends_expression(kind: Option<K>) -> bool {
    matches!(
        kind,
        None | Some(
            K::Newline
                | K::Comma
                | K::CBrace
                | K::CBrack
                | K::CParen
                | K::TemplateSeqEnd
                | K::Equal
                | K::Colon
                | K::FatArrow
                | K::Ellipsis
        )
    )
}

/// Parses an expression with `expression`, or directly when it is a
/// [`simple_atom`] (skipping the recursive parser's dispatch).
fn expr<'s>(inp: &mut Inp<'s, '_>, expression: &PExpr<'s>) -> Result<Expr, EmptyErr> {
    match simple_atom(inp) {
        Some(atom) => Ok(atom),
        None => inp.parse(expression),
    }
}

/// An identifier, keyword literal or number followed by a token that
/// cannot continue an expression (the value of most attributes and object
/// items, most object keys): consumed and built exactly as the full
/// `conditional` → … → `term` descent would, without it. `None` (nothing
/// consumed) otherwise.
fn simple_atom(inp: &mut Inp<'_, '_>) -> Option<Expr> {
    let first = peek(inp)?;
    if first.kind == K::OQuote {
        return simple_string(inp, first);
    }
    if first.kind == K::Ident && peek2_kind(inp) == Some(K::Dot) {
        return simple_traversal(inp, first);
    }
    if !matches!(first.kind, K::Ident | K::NumberLit) || !ends_expression(peek2_kind(inp)) {
        return None;
    }
    bump(inp);
    let s = st(inp);
    Some(if first.kind == K::NumberLit {
        number(s, first)
    } else {
        ident_term(s, first)
    })
}

/// `simple_atom` for `name.attr.attr…` (attribute steps only, the most
/// common reference) followed by a token that ends an expression: built
/// as `term` and `postfix_chain` would (`finish_traversal` of the name's
/// term and its steps). `None` (nothing consumed) for anything else.
fn simple_traversal(inp: &mut Inp<'_, '_>, first: Sig) -> Option<Expr> {
    let cursor = *inp.cursor().inner();
    let s = st(inp);
    let kind_at = |n: usize| s.sigs.get(cursor + n).map(|idx| s.sig_kind(*idx));
    let mut steps = 0;
    while kind_at(1 + 2 * steps) == Some(K::Dot) && kind_at(2 + 2 * steps) == Some(K::Ident) {
        steps += 1;
    }
    if steps == 0 || !ends_expression(kind_at(1 + 2 * steps)) {
        return None;
    }
    bump(inp);
    let source = ident_term(st(inp), first);
    let mut list = Vec::with_capacity(steps);
    for _ in 0..steps {
        let (Some(dot), Some(name)) = (bump(inp), bump(inp)) else {
            break;
        };
        list.push(
            Step {
                kind: StepKind::Attr(st(inp).ident_of(name)),
                range: TextRange::new(dot.range.start, name.range.end),
            }
            .covered(),
        );
    }
    Some(finish_traversal(source, list))
}

/// `simple_atom` for a plain quoted string (see [`plain_quoted`]) below
/// the nesting limit (where the template production would not stop).
fn simple_string(inp: &mut Inp<'_, '_>, open: Sig) -> Option<Expr> {
    if st(inp).depth >= MAX_NESTING_DEPTH {
        return None;
    }
    let lit = peek_nth(inp, 1)?;
    let (part, after) = match lit.kind {
        K::QuotedLit if peek_nth(inp, 2).map(|s| s.kind) == Some(K::CQuote) => (Some(lit), 3),
        K::CQuote => (None, 2),
        _ => return None,
    };
    if !ends_expression(peek_nth(inp, after).map(|s| s.kind)) {
        return None;
    }
    let parts = plain_parts(st(inp), part)?;
    for _ in 0..after {
        bump(inp);
    }
    Some(Expr::new(
        ExprKind::Template(Box::new(Template {
            kind: TemplateKind::Quoted,
            parts: parts.into_boxed_slice(),
        })),
        st(inp).range_from(open.range.start),
    ))
}

/// A bare identifier as a term: a keyword literal or a variable.
fn ident_term(s: &St<'_>, sig: Sig) -> Expr {
    // Only a name of 4 or 5 bytes can be a keyword literal.
    if !matches!(sig.range.len(), 4 | 5) {
        return Expr::leaf(ExprKind::Variable(s.ident_of(sig)), sig.range);
    }
    match s.slice(sig.range) {
        "true" => Expr::leaf(ExprKind::Literal(Literal::Bool(true)), sig.range),
        "false" => Expr::leaf(ExprKind::Literal(Literal::Bool(false)), sig.range),
        "null" => Expr::leaf(ExprKind::Literal(Literal::Null), sig.range),
        _ => Expr::leaf(ExprKind::Variable(s.ident_of(sig)), sig.range),
    }
}

fn peek_range(inp: &mut Inp<'_, '_>) -> TextRange {
    match peek(inp) {
        Some(s) => s.range,
        None => st(inp).eof(),
    }
}

fn bump(inp: &mut Inp<'_, '_>) -> Option<Sig> {
    let sig = next(inp)?;
    st(inp).last_end = sig.range.end;
    Some(sig)
}

fn is_open(kind: K) -> bool {
    matches!(
        kind,
        K::OParen | K::OBrack | K::OBrace | K::TemplateInterp | K::TemplateControl
    )
}
fn is_close(kind: K) -> bool {
    matches!(kind, K::CParen | K::CBrack | K::CBrace | K::TemplateSeqEnd)
}

/// Skips to the closer of the construct whose opener was consumed; see
/// the module docs. Returns whether `close` was consumed.
fn recover_to(inp: &mut Inp<'_, '_>, close: K) -> bool {
    let mut depth: usize = 0;
    while let Some(sig) = peek(inp) {
        if is_open(sig.kind) {
            depth += 1;
        } else if is_close(sig.kind) {
            if depth == 0 {
                if sig.kind == close {
                    bump(inp);
                    return true;
                }
                return false;
            }
            depth -= 1;
        } else if sig.kind == K::Newline && st(inp).item_starts_after(sig) {
            return false;
        }
        bump(inp);
    }
    false
}

/// Skips the rest of a broken body item, up to its line break.
fn recover_line(inp: &mut Inp<'_, '_>) {
    let mut depth: usize = 0;
    while let Some(sig) = peek(inp) {
        if is_open(sig.kind) {
            depth += 1;
        } else if is_close(sig.kind) {
            if depth == 0 {
                if sig.kind == K::CBrace {
                    return;
                }
            } else {
                depth -= 1;
            }
        } else if sig.kind == K::Newline && (depth == 0 || st(inp).item_starts_after(sig)) {
            return;
        }
        bump(inp);
    }
}

/// Skips, without recursion, the balanced group at the next token.
fn skip_group(inp: &mut Inp<'_, '_>) -> Expr {
    let start = peek_range(inp).start;
    let mut depth: usize = 0;
    while let Some(sig) = peek(inp) {
        if sig.kind == K::Newline && depth == 0 {
            break;
        }
        bump(inp);
        match sig.kind {
            K::OParen
            | K::OBrack
            | K::OBrace
            | K::TemplateInterp
            | K::TemplateControl
            | K::OQuote
            | K::OHeredoc => depth += 1,
            K::CParen | K::CBrack | K::CBrace | K::TemplateSeqEnd | K::CQuote | K::CHeredoc => {
                depth = depth.saturating_sub(1)
            }
            _ => {}
        }
        if depth == 0 {
            break;
        }
    }
    Expr::new(ExprKind::Error, st(inp).range_from(start))
}

/// Enters one nesting level; false (after reporting once) at the limit.
fn enter(inp: &mut Inp<'_, '_>) -> bool {
    let range = peek_range(inp);
    let s = st(inp);
    if s.depth >= MAX_NESTING_DEPTH {
        if !s.depth_reported {
            s.depth_reported = true;
            s.error(
                codes::NESTING_TOO_DEEP,
                range,
                format!("nesting is deeper than the limit of {MAX_NESTING_DEPTH} levels"),
            );
        }
        s.recovering = true;
        return false;
    }
    s.depth += 1;
    true
}

fn leave(inp: &mut Inp<'_, '_>) {
    let s = st(inp);
    s.depth = s.depth.saturating_sub(1);
}

/// Skips what is left of an expression cut off at the nesting limit.
fn recover_line_in_expr(inp: &mut Inp<'_, '_>) {
    while let Some(kind) = peek_kind(inp) {
        match kind {
            K::Newline | K::CParen | K::CBrack | K::CBrace | K::TemplateSeqEnd | K::Comma => break,
            _ => {
                skip_group(inp);
            }
        }
    }
}

fn is_keyword(inp: &mut Inp<'_, '_>, word: &str) -> bool {
    match peek(inp) {
        Some(sig) if sig.kind == K::Ident => st(inp).slice(sig.range) == word,
        _ => false,
    }
}

// ----------------------------------------------------------------------
// Combinator helpers
// ----------------------------------------------------------------------

/// One token of `kind`, recording its end (a `custom` parser, so the
/// state update also happens when the output is discarded).
fn tok<'s>(kind: K) -> impl Parser<'s, In<'s>, Sig, Ex<'s>> + Clone {
    custom(move |inp: &mut Inp<'s, '_>| match peek(inp) {
        Some(sig) if sig.kind == kind => {
            bump(inp);
            Ok(sig)
        }
        _ => Err(EmptyErr::default()),
    })
}

/// Runs `p` one nesting level deeper; at the limit, reports and skips the
/// balanced group instead.
fn nested<'s, P>(p: P) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone
where
    P: Parser<'s, In<'s>, Expr, Ex<'s>> + Clone,
{
    custom(move |inp: &mut Inp<'s, '_>| {
        if !enter(inp) {
            return Ok(skip_group(inp));
        }
        let out = inp.parse(&p);
        leave(inp);
        out
    })
}

type PExpr<'s> = Boxed<'s, 's, In<'s>, Expr, Ex<'s>>;

// ----------------------------------------------------------------------
// Expressions
// ----------------------------------------------------------------------

fn number(st: &mut St<'_>, sig: Sig) -> Expr {
    let text = st.slice(sig.range);
    let value = match literal::parse_number(text) {
        Ok(value) => value,
        Err(NumberError::Malformed) => {
            st.error(
                codes::INVALID_NUMBER,
                sig.range,
                format!("`{text}` is not a valid number"),
            );
            NumberValue::Invalid
        }
        Err(NumberError::OutOfRange) => {
            st.error(
                codes::NUMBER_OUT_OF_RANGE,
                sig.range,
                literal::out_of_range_message(text),
            );
            NumberValue::Invalid
        }
        Err(NumberError::TooLong) => {
            st.error(
                codes::NUMBER_TOO_LONG,
                sig.range,
                literal::too_long_message(text),
            );
            NumberValue::Invalid
        }
    };
    Expr::leaf(
        ExprKind::Literal(Literal::Number(Box::new(Number {
            text: text.into(),
            value,
        }))),
        sig.range,
    )
}

/// `expression = conditional`, with everything it needs.
fn expression<'s>() -> PExpr<'s> {
    recursive(|expression| {
        let expression = expression.boxed();
        let operand = Operand {
            term: term(expression.clone()),
            chain: postfix_chain(expression.clone()).boxed(),
        };
        conditional(operand, expression)
    })
    .boxed()
}

/// `conditional = binary [ "?" expression ":" expression ]`.
/// What an operand of an operator is made of. `unary` and `postfix_expr`
/// are plain functions over these parsers, called directly (two chumsky
/// dispatches fewer per operand than one boxed parser per production).
#[derive(Clone)]
struct Operand<'s> {
    term: PExpr<'s>,
    chain: Boxed<'s, 's, In<'s>, Chain, Ex<'s>>,
}

fn conditional<'s>(unary: Operand<'s>, expression: PExpr<'s>) -> PExpr<'s> {
    let rest = move |inp: &mut Inp<'s, '_>| -> Result<Option<(Expr, Expr)>, EmptyErr> {
        if !enter(inp) {
            recover_line_in_expr(inp);
            return Ok(None);
        }
        bump(inp);
        let then_expr = expr(inp, &expression)?;
        let else_expr = if peek_kind(inp) == Some(K::Colon) {
            bump(inp);
            expr(inp, &expression)?
        } else {
            let range = peek_range(inp);
            st(inp).error_r(
                codes::MISSING_CONDITIONAL_ELSE,
                range,
                "expected `:` and the false branch of the conditional",
            );
            Expr::new(ExprKind::Error, TextRange::empty(then_expr.range.end))
        };
        leave(inp);
        Ok(Some((then_expr, else_expr)))
    };
    // Callers go through [`expr`], which has tried `simple_atom` already.
    custom(move |inp: &mut Inp<'s, '_>| {
        let condition = binary(inp, &unary)?;
        if peek_kind(inp) != Some(K::Question) {
            return Ok(condition);
        }
        let before = inp.save();
        Ok(match rest(inp) {
            Err(_) => {
                inp.rewind(before);
                condition
            }
            Ok(None) => {
                let range = st(inp).range_from(condition.range.start);
                Expr::new(ExprKind::Error, range)
            }
            Ok(Some((then_expr, else_expr))) => {
                let range = TextRange::new(
                    condition.range.start,
                    else_expr.range.end.max(then_expr.range.end),
                );
                Expr::new(
                    ExprKind::Conditional(Box::new(Conditional {
                        condition,
                        then_expr,
                        else_expr,
                    })),
                    range,
                )
            }
        })
    })
    .boxed()
}

fn binary_op(kind: K) -> Option<BinaryOp> {
    Some(match kind {
        K::Or => BinaryOp::Or,
        K::And => BinaryOp::And,
        K::EqualOp => BinaryOp::Equal,
        K::NotEqual => BinaryOp::NotEqual,
        K::LessThan => BinaryOp::Less,
        K::LessThanEq => BinaryOp::LessEqual,
        K::GreaterThan => BinaryOp::Greater,
        K::GreaterThanEq => BinaryOp::GreaterEqual,
        K::Plus => BinaryOp::Add,
        K::Minus => BinaryOp::Subtract,
        K::Star => BinaryOp::Multiply,
        K::Slash => BinaryOp::Divide,
        K::Percent => BinaryOp::Modulo,
        _ => return None,
    })
}

/// `binary`: `or_expr` (1) down to `multiplicative` (6), all levels
/// left-associative, parsed by one precedence-climbing loop instead of a
/// `foldl` per level. Called directly from `conditional`'s `custom`
/// parser (one combinator layer fewer per expression).
fn binary<'s>(inp: &mut Inp<'s, '_>, unary: &Operand<'s>) -> Result<Expr, EmptyErr> {
    climb(inp, unary, 1).map(|(expr, _)| expr)
}

/// Parses operands joined by operators of precedence `min_prec` or more.
/// Returns the expression and whether an operand failed after its
/// operator (the operator is then left unconsumed and every level stops,
/// as a `foldl` of `op.then(operand).repeated()` would).
fn climb<'s>(
    inp: &mut Inp<'s, '_>,
    unary: &Operand<'s>,
    min_prec: u8,
) -> Result<(Expr, bool), EmptyErr> {
    let mut lhs = unary_expr(inp, unary)?;
    loop {
        let Some(op) = peek_kind(inp).and_then(binary_op) else {
            return Ok((lhs, false));
        };
        let prec = op.precedence();
        if prec < min_prec {
            return Ok((lhs, false));
        }
        let before = inp.save();
        let Some(op_sig) = bump(inp) else {
            return Ok((lhs, false));
        };
        let (rhs, stopped) = if prec >= 6 {
            match unary_expr(inp, unary) {
                Ok(rhs) => (rhs, false),
                Err(_) => {
                    inp.rewind(before);
                    return Ok((lhs, true));
                }
            }
        } else {
            match climb(inp, unary, prec + 1) {
                Ok(out) => out,
                Err(_) => {
                    inp.rewind(before);
                    return Ok((lhs, true));
                }
            }
        };
        let range = TextRange::new(lhs.range.start, rhs.range.end.max(op_sig.range.end));
        lhs = Expr::new(
            ExprKind::Binary(Box::new(Binary {
                op,
                op_range: op_sig.range,
                lhs,
                rhs,
            })),
            range,
        );
        if stopped {
            return Ok((lhs, true));
        }
    }
}

/// `unary = ( "-" | "!" ) unary | postfix_expr`. The operator chain is
/// plain Rust recursion (bounded by [`MAX_NESTING_DEPTH`] through
/// `enter`), so an operand that is not a unary expression costs no parser
/// dispatch of its own.
fn unary_expr<'s>(inp: &mut Inp<'s, '_>, parts: &Operand<'s>) -> Result<Expr, EmptyErr> {
    if matches!(peek_kind(inp), Some(K::Minus | K::Bang)) {
        let before = inp.save();
        match unary_operator(inp, parts) {
            Ok(expr) => return Ok(expr),
            Err(_) => inp.rewind(before),
        }
    }
    postfix_expr(inp, parts)
}

fn unary_operator<'s>(inp: &mut Inp<'s, '_>, parts: &Operand<'s>) -> Result<Expr, EmptyErr> {
    if !enter(inp) {
        let start = peek_range(inp).start;
        while matches!(peek_kind(inp), Some(K::Minus | K::Bang)) {
            bump(inp);
        }
        recover_line_in_expr(inp);
        return Ok(Expr::new(ExprKind::Error, st(inp).range_from(start)));
    }
    let op_sig = bump(inp).ok_or(EmptyErr::default())?;
    let op = if op_sig.kind == K::Minus {
        UnaryOp::Negate
    } else {
        UnaryOp::Not
    };
    let operand = unary_expr(inp, parts)?;
    leave(inp);
    let range = TextRange::new(op_sig.range.start, operand.range.end.max(op_sig.range.end));
    Ok(Expr::new(
        ExprKind::Unary(Box::new(Unary {
            op,
            op_range: op_sig.range,
            operand,
        })),
        range,
    ))
}

/// One postfix operation, before folding into traversals and splats.
enum Op {
    Attr(Step),
    Index(Step),
    AttrSplat(TextRange, Vec<Step>),
    FullSplat(TextRange),
    /// A `[*]` past the nesting limit (reported): its per-element
    /// expression is an error covering the skipped rest of the line.
    TooDeepSplat(TextRange, TextRange),
    /// A broken step (reported); the whole chain becomes an error.
    Broken,
}

fn legacy_index(st: &mut St<'_>, dot: Sig, token: Sig, in_splat: bool) -> Step {
    let text = st.slice(token.range);
    let range = TextRange::new(dot.range.start, token.range.end);
    if text.contains('.') {
        let hint = if in_splat {
            "chained legacy indexes are not allowed; use a full splat with brackets, like [*][0][1]"
        } else {
            "chained legacy indexes are not allowed; use brackets, like [0][1]"
        };
        st.error(codes::INVALID_LEGACY_INDEX, token.range, hint);
    }
    let value = match literal::parse_number(text) {
        Ok(NumberValue::Int(v)) => v,
        Err(NumberError::TooLong) => {
            st.error(
                codes::NUMBER_TOO_LONG,
                token.range,
                literal::too_long_message(text),
            );
            num_bigint::BigInt::default()
        }
        _ => num_bigint::BigInt::default(),
    };
    Step {
        kind: StepKind::LegacyIndex {
            text: text.into(),
            value,
        },
        range,
    }
    .covered()
}

/// `postfix_expr = term postfix_chain`. The chain parser only runs when a
/// step can start (`.` or `[`), as `repeated` would find nothing else.
fn postfix_expr<'s>(inp: &mut Inp<'s, '_>, parts: &Operand<'s>) -> Result<Expr, EmptyErr> {
    let term = inp.parse(&parts.term)?;
    if !matches!(peek_kind(inp), Some(K::Dot | K::OBrack)) {
        return Ok(term);
    }
    let base = st(inp).scratch.steps.len();
    let chain = match inp.parse(&parts.chain) {
        Ok(chain) => chain,
        Err(err) => {
            st(inp).scratch.steps.truncate(base);
            return Err(err);
        }
    };
    let steps = take_run(&mut st(inp).scratch.steps, chain.base);
    if term.is_error() {
        return Ok(term);
    }
    if chain.ops.is_empty() {
        return Ok(finish_traversal(term, steps));
    }
    Ok(fold_chain(st(inp), term, chain.ops))
}

/// `postfix_chain = { "." IDENT | legacy_index | "[" expression "]" |
/// attr_splat | full_splat }`.
fn postfix_chain<'s>(expression: PExpr<'s>) -> impl Parser<'s, In<'s>, Chain, Ex<'s>> + Clone {
    let dot_step = custom(|inp: &mut Inp<'s, '_>| {
        let dot = bump(inp).ok_or(EmptyErr::default())?;
        match peek_kind(inp) {
            Some(K::Ident) => {
                let token = bump(inp).ok_or(EmptyErr::default())?;
                let ident = st(inp).ident_of(token);
                Ok(Op::Attr(
                    Step {
                        kind: StepKind::Attr(ident),
                        range: TextRange::new(dot.range.start, token.range.end),
                    }
                    .covered(),
                ))
            }
            Some(K::NumberLit) => {
                let token = bump(inp).ok_or(EmptyErr::default())?;
                Ok(Op::Attr(legacy_index(st(inp), dot, token, false)))
            }
            Some(K::Star) => {
                let star = bump(inp).ok_or(EmptyErr::default())?;
                let marker = TextRange::new(dot.range.start, star.range.end);
                Ok(Op::AttrSplat(marker, attr_splat(inp)))
            }
            _ => {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::INVALID_ATTRIBUTE_NAME,
                    TextRange::new(dot.range.start, range.end),
                    "expected an attribute name, a number or `*` after `.`",
                );
                Ok(Op::Broken)
            }
        }
    });
    let bracket_step = custom(move |inp: &mut Inp<'s, '_>| {
        let before_open = inp.save();
        let open = bump(inp).ok_or(EmptyErr::default())?;
        if peek_kind(inp) == Some(K::Star) {
            bump(inp);
            let marker = if peek_kind(inp) == Some(K::CBrack) {
                let close = bump(inp).ok_or(EmptyErr::default())?;
                TextRange::new(open.range.start, close.range.end)
            } else {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::UNCLOSED_INDEX,
                    range,
                    "expected `]` right after `[*`",
                );
                st(inp).range_from(open.range.start)
            };
            return Ok(Op::FullSplat(marker));
        }
        if !enter(inp) {
            inp.rewind(before_open);
            skip_group(inp);
            return Ok(Op::Broken);
        }
        let key = expr(inp, &expression)?;
        match peek_kind(inp) {
            Some(K::CBrack) => {
                bump(inp);
            }
            // At the end of the input, point at the `[` left open.
            None => st(inp).error_r(
                codes::UNCLOSED_INDEX,
                open.range,
                "this `[` has no matching `]`",
            ),
            Some(_) => {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::UNCLOSED_INDEX,
                    range,
                    "expected `]` to close the index",
                );
                recover_to(inp, K::CBrack);
            }
        }
        leave(inp);
        let range = st(inp).range_from(open.range.start);
        Ok(Op::Index(
            Step {
                kind: StepKind::Index(key),
                range,
            }
            .covered(),
        ))
    });
    // Steps are chosen by the next token's kind (no look-ahead parsers);
    // a failing step is rewound and ends the chain, like `repeated`.
    custom(move |inp: &mut Inp<'s, '_>| {
        let mut chain = Chain {
            base: st(inp).scratch.steps.len(),
            ops: Vec::new(),
        };
        // Each `[*]` nests the rest of the chain one level deeper.
        let mut entered = 0;
        loop {
            let before = inp.save();
            let step = match peek_kind(inp) {
                Some(K::Dot) => inp.parse(dot_step),
                Some(K::OBrack) => inp.parse(&bracket_step),
                _ => break,
            };
            match step {
                Ok(Op::FullSplat(marker)) => {
                    if enter(inp) {
                        entered += 1;
                        chain.push(&mut st(inp).scratch.steps, Op::FullSplat(marker));
                    } else {
                        recover_line_in_expr(inp);
                        let range = st(inp).range_from(marker.end);
                        chain.push(&mut st(inp).scratch.steps, Op::TooDeepSplat(marker, range));
                        break;
                    }
                }
                Ok(op) => chain.push(&mut st(inp).scratch.steps, op),
                Err(_) => {
                    inp.rewind(before);
                    break;
                }
            }
        }
        for _ in 0..entered {
            leave(inp);
        }
        Ok(chain)
    })
}

/// A parsed postfix chain: while it is only `.name`, `.0` and `[i]`
/// steps (nearly always) they are pushed onto `Scratch::steps` above
/// `base` (taken off as the traversal's exact-size step list by
/// `postfix_expr`); from its first splat or broken step on, they are moved
/// into `ops`, with the rest of the chain, for [`fold_chain`].
struct Chain {
    base: usize,
    ops: Vec<Op>,
}

impl Chain {
    fn push(&mut self, steps: &mut Vec<Step>, op: Op) {
        match op {
            Op::Attr(step) | Op::Index(step) if self.ops.is_empty() => steps.push(step),
            op => {
                if self.ops.is_empty() {
                    // `fold_chain` treats both simple kinds alike.
                    let base = self.base.min(steps.len());
                    self.ops.extend(steps.drain(base..).map(Op::Attr));
                }
                self.ops.push(op);
            }
        }
    }
}

/// `attr_splat = ".*" { "." IDENT | legacy_index }`.
fn attr_splat(inp: &mut Inp<'_, '_>) -> Vec<Step> {
    let mut steps = Vec::new();
    loop {
        let save = inp.save();
        if peek_kind(inp) != Some(K::Dot) {
            break;
        }
        inp.skip();
        let second = peek(inp);
        inp.rewind(save);
        match second.map(|s| s.kind) {
            Some(K::Ident) => {
                let (Some(dot), Some(token)) = (bump(inp), bump(inp)) else {
                    break;
                };
                let ident = st(inp).ident_of(token);
                steps.push(
                    Step {
                        kind: StepKind::Attr(ident),
                        range: TextRange::new(dot.range.start, token.range.end),
                    }
                    .covered(),
                );
            }
            Some(K::NumberLit) => {
                let (Some(dot), Some(token)) = (bump(inp), bump(inp)) else {
                    break;
                };
                steps.push(legacy_index(st(inp), dot, token, true));
            }
            Some(K::Star) => {
                let (Some(dot), Some(star)) = (bump(inp), bump(inp)) else {
                    break;
                };
                st(inp).error_r(
                    codes::NESTED_SPLAT,
                    TextRange::new(dot.range.start, star.range.end),
                    "a `.*` splat cannot follow another `.*` splat; use `[*]` instead",
                );
            }
            _ => break,
        }
    }
    steps
}

/// Wraps `source` in a traversal when there are steps.
fn finish_traversal(source: Expr, steps: Vec<Step>) -> Expr {
    match steps.last() {
        None => source,
        Some(last) => {
            let range = TextRange::new(source.range.start, last.range.end);
            Expr::new(
                ExprKind::Traversal(Box::new(Traversal {
                    source,
                    steps: steps.into_boxed_slice(),
                })),
                range,
            )
        }
    }
}

/// Folds postfix operations into traversals and splats, without
/// recursion: a `[*]` applies the whole rest of the chain to each element,
/// so the chain is folded from the last full splat backwards.
fn fold_chain(st: &St<'_>, source: Expr, ops: Vec<Op>) -> Expr {
    if ops.is_empty() {
        return source;
    }
    if ops
        .iter()
        .all(|op| matches!(op, Op::Attr(_) | Op::Index(_)))
    {
        // The common case: a plain traversal.
        let mut steps = Vec::with_capacity(ops.len());
        for op in ops {
            if let Op::Attr(step) | Op::Index(step) = op {
                steps.push(step);
            }
        }
        return finish_traversal(source, steps);
    }
    if ops.iter().any(|op| matches!(op, Op::Broken)) {
        return Expr::new(ExprKind::Error, st.range_from(source.range.start));
    }
    // Split at full splats: segments[0] applies to `source`, each later
    // segment to the splat item of the splat before it.
    let mut segments: Vec<(Option<TextRange>, Vec<Op>)> = vec![(None, Vec::new())];
    for op in ops {
        match op {
            Op::FullSplat(marker) => segments.push((Some(marker), Vec::new())),
            Op::TooDeepSplat(marker, range) => {
                segments.push((Some(marker), vec![Op::TooDeepSplat(marker, range)]))
            }
            other => {
                if let Some(last) = segments.last_mut() {
                    last.1.push(other);
                }
            }
        }
    }
    let fold_segment = |mut source: Expr, ops: Vec<Op>| {
        let mut steps = Vec::new();
        for op in ops {
            match op {
                Op::Attr(step) | Op::Index(step) => steps.push(step),
                Op::AttrSplat(marker, each_steps) => {
                    source = finish_traversal(source, std::mem::take(&mut steps));
                    let item = Expr::new(ExprKind::SplatItem, TextRange::empty(marker.end));
                    let each = finish_traversal(item, each_steps);
                    let range = TextRange::new(source.range.start, each.range.end.max(marker.end));
                    source = Expr::new(
                        ExprKind::Splat(Box::new(Splat {
                            source,
                            kind: SplatKind::Attr,
                            marker_range: marker,
                            each,
                        })),
                        range,
                    );
                }
                Op::TooDeepSplat(_, range) => source = Expr::new(ExprKind::Error, range),
                Op::FullSplat(_) | Op::Broken => {}
            }
        }
        finish_traversal(source, steps)
    };
    // Fold the innermost (last) segment first.
    let mut inner: Option<(TextRange, Expr)> = None;
    while segments.len() > 1 {
        let Some((marker, ops)) = segments.pop() else {
            break;
        };
        let marker = marker.unwrap_or_default();
        let item = Expr::new(ExprKind::SplatItem, TextRange::empty(marker.end));
        let mut each = fold_segment(item, ops);
        if let Some((inner_marker, inner_each)) = inner.take() {
            each = splat_full(each, inner_marker, inner_each);
        }
        inner = Some((marker, each));
    }
    let (_, first_ops) = segments.pop().unwrap_or((None, Vec::new()));
    let mut out = fold_segment(source, first_ops);
    if let Some((marker, each)) = inner {
        out = splat_full(out, marker, each);
    }
    out
}

fn splat_full(source: Expr, marker: TextRange, each: Expr) -> Expr {
    let range = TextRange::new(source.range.start, each.range.end.max(marker.end));
    Expr::new(
        ExprKind::Splat(Box::new(Splat {
            source,
            kind: SplatKind::Full,
            marker_range: marker,
            each,
        })),
        range,
    )
}

/// `term`: a literal, variable, call, template, group or collection.
fn term<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    fn expected(inp: &mut Inp<'_, '_>) -> Expr {
        let range = peek_range(inp);
        let message = match peek_kind(inp) {
            None => "expected an expression, found the end of the file".to_string(),
            Some(kind) => format!("expected an expression, found {}", kind.describe()),
        };
        st(inp).error_r(codes::EXPECTED_EXPRESSION, range, message);
        Expr::new(ExprKind::Error, range)
    }
    let call = nested(function_call(expression.clone()));
    let paren = nested(paren_expr(expression.clone()));
    let tuple = nested(tuple_or_for(expression.clone()));
    let object = nested(object_or_for(expression.clone()));
    let template = nested(template_expr(expression));
    // The alternative is chosen by the next token's kind; a failing
    // alternative is rewound and the next one tried, as `choice` would.
    custom(move |inp: &mut Inp<'s, '_>| {
        let Some(sig) = peek(inp) else {
            return Ok(expected(inp));
        };
        let before = inp.save();
        let nested_term = match sig.kind {
            K::NumberLit => {
                bump(inp);
                return Ok(number(st(inp), sig));
            }
            K::Ident => {
                if matches!(peek2_kind(inp), Some(K::OParen | K::DoubleColon)) {
                    st(inp).last_end = sig.range.end;
                    match inp.parse(&call) {
                        Ok(expr) => return Ok(expr),
                        Err(_) => inp.rewind(before),
                    }
                }
                bump(inp);
                return Ok(ident_term(st(inp), sig));
            }
            K::OParen => inp.parse(&paren),
            K::OBrack => inp.parse(&tuple),
            K::OBrace => inp.parse(&object),
            K::OQuote | K::OHeredoc => inp.parse(&template),
            _ => return Ok(expected(inp)),
        };
        match nested_term {
            Ok(expr) => Ok(expr),
            Err(_) => {
                inp.rewind(before);
                Ok(expected(inp))
            }
        }
    })
    .boxed()
}

/// `paren_expr = "(" expression ")"`.
fn paren_expr<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    tok(K::OParen)
        .then(expression)
        .then(custom(|inp: &mut Inp<'s, '_>| {
            match peek_kind(inp) {
                Some(K::CParen) => {
                    bump(inp);
                }
                Some(K::Newline) | None => return Ok(Some(())),
                _ => {
                    let range = peek_range(inp);
                    st(inp).error_r(
                        codes::UNCLOSED_PAREN,
                        range,
                        "expected `)` to close the parenthesised expression",
                    );
                    recover_to(inp, K::CParen);
                }
            }
            Ok(None)
        }))
        .map_with(|((open, inner), unclosed_at_newline), e| {
            let st = &mut e.state().0;
            if unclosed_at_newline.is_some() {
                st.error_r(
                    codes::UNCLOSED_PAREN,
                    open.range,
                    "this `(` has no matching `)`",
                );
            }
            Expr::new(
                ExprKind::Parens(Box::new(inner)),
                st.range_from(open.range.start),
            )
        })
        .boxed()
}

/// `function_call = IDENT { "::" IDENT } "(" call_args`.
fn function_call<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    custom(move |inp: &mut Inp<'s, '_>| {
        let first = bump(inp).ok_or(EmptyErr::default())?;
        let start = first.range.start;
        let mut segments = vec![st(inp).ident_of(first)];
        while peek_kind(inp) == Some(K::DoubleColon) {
            let colons = bump(inp).ok_or(EmptyErr::default())?;
            if peek_kind(inp) == Some(K::Ident) {
                let token = bump(inp).ok_or(EmptyErr::default())?;
                let ident = st(inp).ident_of(token);
                segments.push(ident);
            } else {
                let s = st(inp);
                s.error(
                    codes::INVALID_FUNCTION_NAME,
                    colons.range,
                    "expected a function name after `::`",
                );
                s.recovering = true;
                return Ok(Expr::new(ExprKind::Error, s.range_from(start)));
            }
        }
        let name_range = st(inp).range_from(start);
        if peek_kind(inp) != Some(K::OParen) {
            let s = st(inp);
            s.error(
                codes::INVALID_FUNCTION_NAME,
                name_range,
                "expected `(` after the namespaced function name",
            );
            s.recovering = true;
            return Ok(Expr::new(ExprKind::Error, name_range));
        }
        let open = bump(inp).ok_or(EmptyErr::default())?;
        let name: Box<str> = if segments.len() == 1 {
            segments
                .first()
                .map(|s| Box::from(s.name.as_str()))
                .unwrap_or_default()
        } else {
            segments
                .iter()
                .map(|s| &*s.name)
                .collect::<Vec<_>>()
                .join("::")
                .into()
        };
        let (args, expand_final, close) = call_args(inp, &expression, open.range)?;
        let s = st(inp);
        let close_paren_range = close.unwrap_or(TextRange::empty(s.last_end));
        Ok(Expr::new(
            ExprKind::Call(Box::new(Call {
                name,
                name_range,
                segments,
                args,
                expand_final,
                open_paren_range: open.range,
                close_paren_range,
            })),
            s.range_from(start),
        ))
    })
    .boxed()
}

type Args = (Vec<Expr>, bool, Option<TextRange>);

/// `call_args = [ expression { "," expression } [ "," | "..." ] ] ")"`.
fn call_args<'s>(
    inp: &mut Inp<'s, '_>,
    expression: &PExpr<'s>,
    open: TextRange,
) -> Result<Args, EmptyErr> {
    let base = st(inp).scratch.exprs.len();
    let result = call_args_onto_scratch(inp, expression, open);
    let args = take_run(&mut st(inp).scratch.exprs, base);
    let (expand, close) = result?;
    Ok((args, expand, close))
}

/// [`call_args`], pushing the arguments onto the scratch stack: whether
/// the last one is expanded (`...`) and the `)`'s range.
fn call_args_onto_scratch<'s>(
    inp: &mut Inp<'s, '_>,
    expression: &PExpr<'s>,
    open: TextRange,
) -> Result<(bool, Option<TextRange>), EmptyErr> {
    let mut expand = false;
    loop {
        match peek_kind(inp) {
            Some(K::CParen) => {
                let close = bump(inp).map(|s| s.range);
                return Ok((expand, close));
            }
            None | Some(K::Newline) => {
                st(inp).error_r(
                    codes::UNCLOSED_CALL,
                    open,
                    "this function call has no closing `)`",
                );
                return Ok((expand, None));
            }
            _ => {}
        }
        let before = inp.cursor();
        let arg = expr(inp, expression)?;
        st(inp).scratch.exprs.push(arg);
        match peek_kind(inp) {
            Some(K::Comma) => {
                bump(inp);
            }
            Some(K::Ellipsis) => {
                bump(inp);
                expand = true;
                if peek_kind(inp) == Some(K::CParen) {
                    let close = bump(inp).map(|s| s.range);
                    return Ok((expand, close));
                }
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::INVALID_EXPANSION,
                    range,
                    "an argument expanded with `...` must be the last one, followed by `)`",
                );
                let closed = recover_to(inp, K::CParen);
                let end = st(inp).last_end;
                return Ok((expand, closed.then(|| TextRange::empty(end))));
            }
            Some(K::CParen) | None | Some(K::Newline) => {}
            Some(_) => {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::MISSING_COMMA,
                    range,
                    "expected `,` between function arguments, or `)`",
                );
                let closed = recover_to(inp, K::CParen);
                let end = st(inp).last_end;
                return Ok((expand, closed.then(|| TextRange::empty(end))));
            }
        }
        if inp.cursor() == before {
            bump(inp);
        }
    }
}

/// `tuple_or_for = "[" ( for_body | tuple_items ) "]"`.
fn tuple_or_for<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    let for_expr = for_body(expression.clone(), ForKind::Tuple);
    custom(move |inp: &mut Inp<'s, '_>| {
        let save = inp.save();
        let open = bump(inp).ok_or(EmptyErr::default())?;
        if is_keyword(inp, "for") {
            inp.rewind(save);
            return inp.parse(&for_expr);
        }
        let base = st(inp).scratch.exprs.len();
        let result = tuple_items_onto_scratch(inp, &expression, open);
        let s = st(inp);
        let items = take_run(&mut s.scratch.exprs, base);
        result?;
        Ok(Expr::new(
            ExprKind::Tuple(items),
            s.range_from(open.range.start),
        ))
    })
    .boxed()
}

/// A tuple's elements and its `]` (after `open`), the elements pushed
/// onto the scratch stack.
fn tuple_items_onto_scratch<'s>(
    inp: &mut Inp<'s, '_>,
    expression: &PExpr<'s>,
    open: Sig,
) -> Result<(), EmptyErr> {
    loop {
        match peek_kind(inp) {
            Some(K::CBrack) => {
                bump(inp);
                break;
            }
            None | Some(K::Newline) => {
                st(inp).error_r(
                    codes::UNCLOSED_TUPLE,
                    open.range,
                    "this `[` has no matching `]`",
                );
                break;
            }
            _ => {}
        }
        let before = inp.cursor();
        let item = expr(inp, expression)?;
        st(inp).scratch.exprs.push(item);
        match peek_kind(inp) {
            Some(K::Comma) => {
                bump(inp);
            }
            Some(K::CBrack) | None | Some(K::Newline) => {}
            Some(_) => {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::MISSING_COMMA,
                    range,
                    "expected `,` between tuple elements, or `]`",
                );
                recover_to(inp, K::CBrack);
                break;
            }
        }
        if inp.cursor() == before {
            bump(inp);
        }
    }
    Ok(())
}

/// `object_or_for = "{" ( for_body | object_items ) "}"`.
fn object_or_for<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    let for_expr = for_body(expression.clone(), ForKind::Object);
    let items = object_items(expression);
    custom(move |inp: &mut Inp<'s, '_>| {
        let save = inp.save();
        bump(inp);
        let is_for = is_keyword(inp, "for");
        inp.rewind(save);
        if is_for {
            inp.parse(&for_expr)
        } else {
            inp.parse(&items)
        }
    })
    .boxed()
}

/// `object_items`: items separated by `,` or a newline, then `}`.
fn object_items<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    custom(move |inp: &mut Inp<'s, '_>| {
        let open = bump(inp).ok_or(EmptyErr::default())?;
        let base = st(inp).scratch.objects.len();
        let result = object_items_onto_scratch(inp, &expression, open);
        let s = st(inp);
        let items = take_run(&mut s.scratch.objects, base);
        result?;
        Ok(Expr::new(
            ExprKind::Object(items),
            s.range_from(open.range.start),
        ))
    })
    .boxed()
}

/// An object's items and its `}` (after `open`), the items pushed onto
/// the scratch stack.
fn object_items_onto_scratch<'s>(
    inp: &mut Inp<'s, '_>,
    expression: &PExpr<'s>,
    open: Sig,
) -> Result<(), EmptyErr> {
    loop {
        while peek_kind(inp) == Some(K::Newline) {
            bump(inp);
        }
        match peek_kind(inp) {
            Some(K::CBrace) => {
                bump(inp);
                break;
            }
            None => {
                st(inp).error_r(
                    codes::UNCLOSED_OBJECT,
                    open.range,
                    "this `{` has no matching `}`",
                );
                break;
            }
            _ => {}
        }
        let before = inp.cursor();
        let key = expr(inp, expression)?;
        let value = match peek_kind(inp) {
            Some(K::Equal | K::Colon) => {
                bump(inp);
                match peek_kind(inp) {
                    Some(K::Newline) | Some(K::Comma) | Some(K::CBrace) | None => {
                        let range = peek_range(inp);
                        let s = st(inp);
                        s.error_r(
                            codes::MISSING_ATTRIBUTE_VALUE,
                            range,
                            "expected a value after `=` on the same line",
                        );
                        Expr::new(ExprKind::Error, TextRange::empty(s.last_end))
                    }
                    _ => expr(inp, expression)?,
                }
            }
            other => {
                // At the end of the input, point at the `{` left open.
                let range = match other {
                    None => open.range,
                    Some(_) => peek_range(inp),
                };
                let message = match other {
                    Some(K::Newline) | Some(K::Comma) => {
                        "expected `=` and a value after the object key".to_string()
                    }
                    None => "this `{` has no matching `}`".to_string(),
                    Some(K::Ident) => {
                        "expected `=` after the object key; quote keys that contain dots or spaces"
                            .to_string()
                    }
                    Some(kind) => format!(
                        "expected `=` after the object key, found {}",
                        kind.describe()
                    ),
                };
                let code = if other.is_none() {
                    codes::UNCLOSED_OBJECT
                } else {
                    codes::MISSING_KEY_VALUE_SEPARATOR
                };
                st(inp).error_r(code, range, message);
                recover_to(inp, K::CBrace);
                let s = st(inp);
                let item_range = s.range_from(key.range.start);
                s.scratch.objects.push(
                    ObjectItem {
                        key,
                        value: Expr::new(ExprKind::Error, TextRange::empty(s.last_end)),
                        range: item_range,
                    }
                    .covered(),
                );
                return Ok(());
            }
        };
        let range = TextRange::new(key.range.start, value.range.end.max(key.range.end));
        st(inp)
            .scratch
            .objects
            .push(ObjectItem { key, value, range });
        match peek_kind(inp) {
            Some(K::Comma | K::Newline) => {
                bump(inp);
            }
            Some(K::CBrace) | None => {}
            Some(_) => {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::MISSING_ITEM_SEPARATOR,
                    range,
                    "expected a newline or `,` before the next object item",
                );
                recover_to(inp, K::CBrace);
                break;
            }
        }
        if inp.cursor() == before {
            bump(inp);
        }
    }
    Ok(())
}

/// `IDENT [ "," IDENT ] "in" expression`, after the `for` of a `for`
/// expression or a `%{ for }` directive: the key variable (when two are
/// named), the value variable and the collection. `Ok(Err(message))` when
/// the next token does not fit, with nothing after the last good token
/// consumed, so the caller reports `message` there and recovers.
type ForHead = (Option<Ident>, Ident, Expr);

fn for_head<'s>(
    inp: &mut Inp<'s, '_>,
    expression: &PExpr<'s>,
) -> Result<Result<ForHead, &'static str>, EmptyErr> {
    if peek_kind(inp) != Some(K::Ident) {
        return Ok(Err("expected a variable name after `for`"));
    }
    let first = bump(inp).ok_or(EmptyErr::default())?;
    let mut key_var = None;
    let mut value_var = st(inp).ident_of(first);
    if peek_kind(inp) == Some(K::Comma) {
        bump(inp);
        if peek_kind(inp) != Some(K::Ident) {
            return Ok(Err("expected a value variable name after `,`"));
        }
        let second = bump(inp).ok_or(EmptyErr::default())?;
        key_var = Some(value_var);
        value_var = st(inp).ident_of(second);
    }
    if !is_keyword(inp, "in") {
        return Ok(Err("expected `in` after the `for` variable names"));
    }
    bump(inp);
    let collection = expr(inp, expression)?;
    Ok(Ok((key_var, value_var, collection)))
}

/// `for_body = "for" IDENT [ "," IDENT ] "in" expression ":" expression
/// [ "=>" expression ] [ "..." ] [ "if" expression ]`, then the closer.
fn for_body<'s>(expression: PExpr<'s>, kind: ForKind) -> PExpr<'s> {
    let close = if kind == ForKind::Tuple {
        K::CBrack
    } else {
        K::CBrace
    };
    custom(move |inp: &mut Inp<'s, '_>| {
        let open = bump(inp).ok_or(EmptyErr::default())?;
        let for_token = bump(inp).ok_or(EmptyErr::default())?;
        let fail = |inp: &mut Inp<'s, '_>, message: &str| {
            let range = peek_range(inp);
            st(inp).error_r(codes::INVALID_FOR, range, message.to_string());
            recover_to(inp, close);
            Ok(Expr::new(
                ExprKind::Error,
                st(inp).range_from(open.range.start),
            ))
        };
        let (key_var, value_var, collection) = match for_head(inp, &expression)? {
            Ok(head) => head,
            Err(message) => return fail(inp, message),
        };
        if peek_kind(inp) != Some(K::Colon) {
            return fail(inp, "expected `:` after the `for` collection expression");
        }
        bump(inp);
        let first_expr = expr(inp, &expression)?;
        let (key_expr, value_expr) = if peek_kind(inp) == Some(K::FatArrow) {
            bump(inp);
            (Some(first_expr), expr(inp, &expression)?)
        } else {
            (None, first_expr)
        };
        let grouping = if peek_kind(inp) == Some(K::Ellipsis) {
            bump(inp)
        } else {
            None
        };
        let condition = if is_keyword(inp, "if") {
            bump(inp);
            Some(expr(inp, &expression)?)
        } else {
            None
        };
        if peek_kind(inp) == Some(close) {
            bump(inp);
        } else {
            let range = peek_range(inp);
            st(inp).error_r(
                codes::INVALID_FOR,
                range,
                format!("expected {} to end the `for` expression", close.describe()),
            );
            recover_to(inp, close);
        }
        let s = st(inp);
        if kind == ForKind::Tuple {
            if let Some(key) = &key_expr {
                s.error(
                    codes::INVALID_FOR,
                    key.range,
                    "a tuple `for` expression cannot have a key (`=>`)",
                );
            }
            if let Some(dots) = grouping {
                s.error(
                    codes::INVALID_FOR,
                    dots.range,
                    "grouping (`...`) is only allowed in an object `for` expression",
                );
            }
        } else if key_expr.is_none() {
            s.error(
                codes::INVALID_FOR,
                for_token.range,
                "an object `for` expression needs a key: `for k, v in coll : key => value`",
            );
        }
        Ok(Expr::new(
            ExprKind::For(Box::new(ForExpr {
                kind,
                key_var,
                value_var,
                collection,
                key_expr,
                value_expr,
                grouping: grouping.is_some(),
                condition,
            })),
            s.range_from(open.range.start),
        ))
    })
    .boxed()
}

// ----------------------------------------------------------------------
// Templates
// ----------------------------------------------------------------------

/// `template_expr = O_QUOTE template_parts C_QUOTE | O_HEREDOC
/// template_parts C_HEREDOC`.
fn template_expr<'s>(expression: PExpr<'s>) -> PExpr<'s> {
    let quoted_parts = template_parts(expression.clone(), true).boxed();
    let heredoc_parts = template_parts(expression, false).boxed();
    custom(move |inp: &mut Inp<'s, '_>| {
        let open = bump(inp).ok_or(EmptyErr::default())?;
        let (kind, end_kind) = if open.kind == K::OQuote {
            (TemplateKind::Quoted, K::CQuote)
        } else {
            let intro = st(inp).slice(open.range);
            let flush = intro.starts_with("<<-");
            let marker = intro
                .trim_start_matches("<<")
                .trim_start_matches('-')
                .trim_end_matches(['\r', '\n']);
            (
                TemplateKind::Heredoc {
                    marker: marker.into(),
                    flush,
                },
                K::CHeredoc,
            )
        };
        let quoted = end_kind == K::CQuote;
        if quoted {
            if let Some(parts) = plain_quoted(inp) {
                return Ok(Expr::new(
                    ExprKind::Template(Box::new(Template {
                        kind,
                        parts: parts.into_boxed_slice(),
                    })),
                    st(inp).range_from(open.range.start),
                ));
            }
        }
        let base = if quoted {
            inp.parse(&quoted_parts)?
        } else {
            inp.parse(&heredoc_parts)?
        };
        match peek(inp) {
            Some(sig) if sig.kind == end_kind => {
                bump(inp);
            }
            Some(sig) if sig.kind == K::Newline && quoted => {
                st(inp).error_r(
                    codes::MULTILINE_STRING,
                    sig.range,
                    "quoted strings cannot span lines; use `\\n` or a heredoc (<<EOT)",
                );
            }
            _ => {
                let message = if quoted {
                    "this string has no closing `\"` on its line"
                } else {
                    "this heredoc has no closing marker line (the marker must be followed by a newline)"
                };
                st(inp).error_r(codes::UNTERMINATED_TEMPLATE, open.range, message);
            }
        }
        let flush = matches!(kind, TemplateKind::Heredoc { flush: true, .. });
        let parts = finish(st(inp), base, flush);
        Ok(Expr::new(
            ExprKind::Template(Box::new(Template {
                kind,
                parts: parts.into_boxed_slice(),
            })),
            st(inp).range_from(open.range.start),
        ))
    })
    .boxed()
}

/// The most common template, `"text"` (or `""`) with ASCII text and no
/// escapes or sequences, with its closing quote consumed; `None` (nothing
/// consumed) for anything else. Builds exactly what `template_parts` and
/// [`finish`] would, without their intermediate list.
fn plain_quoted(inp: &mut Inp<'_, '_>) -> Option<Vec<TemplatePart>> {
    let save = inp.save();
    let lit = match peek(inp) {
        Some(sig) if sig.kind == K::QuotedLit => {
            bump(inp);
            Some(sig)
        }
        Some(sig) if sig.kind == K::CQuote => None,
        _ => return None,
    };
    if peek_kind(inp) != Some(K::CQuote) {
        inp.rewind(save);
        return None;
    }
    let Some(parts) = plain_parts(st(inp), lit) else {
        inp.rewind(save);
        return None;
    };
    bump(inp);
    Some(parts)
}

/// The parts of a plain quoted string whose only literal token (if any) is
/// `lit`: `None` unless its text is ASCII without escapes or sequences
/// (`\`, `$`, `%`), which is what makes it plain.
fn plain_parts(s: &St<'_>, lit: Option<Sig>) -> Option<Vec<TemplatePart>> {
    let Some(sig) = lit else {
        return Some(Vec::new());
    };
    let raw = s.slice(sig.range);
    // One pass over the bytes (a `char` pattern decodes UTF-8).
    static NOT_PLAIN: ByteSet<3> = ByteSet::new([b'\\', b'$', b'%'], true);
    if NOT_PLAIN.find(raw.as_bytes()) < raw.len() {
        return None;
    }
    Some(vec![TemplatePart::Literal(TemplateLiteral {
        value: Name::new(raw),
        range: sig.range,
    })])
}

/// Turns the flat parts `template_parts` pushed above `base` into the
/// template's parts, taking them off the stack.
fn finish(s: &mut St<'_>, base: usize, flush: bool) -> Vec<TemplatePart> {
    if let Some(parts) = finish_plain(s.text, &mut s.flats, base, flush) {
        return parts;
    }
    let flat = take_run(&mut s.flats, base);
    let mut sink = Sink {
        file: s.file,
        last_end: s.last_end,
        diags: std::mem::take(&mut s.diags),
    };
    let parts = finish_parts(&mut sink, flat, flush);
    s.diags = sink.diags;
    parts
}

/// `template_parts = { QUOTED_LIT | STRING_LIT | interpolation | directive }`;
/// the context is whether the template is quoted. The parts are pushed
/// onto `St::flats`; the output is where they start there (for
/// [`finish`]).
fn template_parts<'s>(
    expression: PExpr<'s>,
    quoted: bool,
) -> impl Parser<'s, In<'s>, usize, Ex<'s>> + Clone {
    let interp = interpolation(expression.clone(), quoted);
    let direct = directive(expression, quoted);
    // One part at a time, chosen by the next token's kind; a failing
    // sequence is rewound and ends the parts, like `repeated`.
    custom(move |inp: &mut Inp<'s, '_>| {
        let base = st(inp).flats.len();
        while let Some(sig) = peek(inp) {
            match sig.kind {
                K::QuotedLit => {
                    bump(inp);
                    let st = st(inp);
                    let mut errors = Vec::new();
                    let value = literal::decode_quoted(st.slice(sig.range), &mut errors);
                    for err in errors {
                        let start = sig.range.start as usize;
                        st.error(
                            codes::INVALID_ESCAPE,
                            TextRange::from_usize(start + err.start..start + err.end),
                            err.message,
                        );
                    }
                    push_quoted_literal(st, base, value, sig.range);
                }
                K::StringLit => {
                    bump(inp);
                    let st = st(inp);
                    let value = literal::decode_heredoc(st.slice(sig.range));
                    st.flats.push(Flat::Lit {
                        value,
                        range: sig.range,
                    });
                }
                K::Invalid if quoted => {
                    bump(inp);
                    st(inp).error(
                        codes::INVALID_ESCAPE,
                        sig.range,
                        "a backslash must be followed by an escape character",
                    );
                }
                K::TemplateInterp | K::TemplateControl => {
                    let before = inp.save();
                    let part = if sig.kind == K::TemplateInterp {
                        inp.parse(&interp)
                    } else {
                        inp.parse(&direct)
                    };
                    match part {
                        Ok(Some(part)) => st(inp).flats.push(part),
                        Ok(None) => {}
                        Err(_) => {
                            inp.rewind(before);
                            break;
                        }
                    }
                }
                _ => break,
            }
        }
        Ok(base)
    })
}

/// Pushes a quoted literal token's decoded text onto `st.flats`, merged at
/// once into the literal on top (above `base`) when both have a
/// non-whitespace character. Merging then is what [`finish`] would do
/// later anyway, and the strip markers of the neighbouring sequences,
/// which trim only the adjacent *token*, trim the same text: trimming
/// stops inside the first or last token either way. A string of many
/// escapes (`$${` lexes as one token each) thus costs one growing string,
/// not one flat part per token.
fn push_quoted_literal<'s>(
    st: &mut St<'s>,
    base: usize,
    value: std::borrow::Cow<'s, str>,
    range: TextRange,
) {
    let solid = value.chars().any(|c| !crate::lexer::is_unicode_space(c));
    let text = st.text;
    if solid && st.flats.len() > base {
        if let Some(Flat::Lit {
            value: prev,
            range: prev_range,
        }) = st.flats.last_mut()
        {
            if st.solid_literal_end == Some(prev_range.end) {
                crate::template::merge_literal(text, prev, prev_range, &value, range);
                st.solid_literal_end = Some(range.end);
                return;
            }
        }
    }
    st.flats.push(Flat::Lit { value, range });
    st.solid_literal_end = solid.then_some(range.end);
}

/// Expects the `}` / `~}` closing a sequence; returns its strip flag.
fn sequence_end(inp: &mut Inp<'_, '_>, open: TextRange, quoted: bool, what: &str) -> bool {
    match peek_kind(inp) {
        Some(K::TemplateSeqEnd) => match bump(inp) {
            Some(sig) => st(inp).slice(sig.range).starts_with('~'),
            None => false,
        },
        None => {
            st(inp).error_r(
                codes::UNCLOSED_TEMPLATE_SEQUENCE,
                open,
                format!("this {what} sequence has no closing `}}`"),
            );
            false
        }
        Some(K::CQuote) if quoted => {
            st(inp).error_r(
                codes::UNCLOSED_TEMPLATE_SEQUENCE,
                open,
                format!("this {what} sequence has no closing `}}` before the end of the string"),
            );
            false
        }
        Some(kind) => {
            let range = peek_range(inp);
            let message = if kind == K::Colon {
                "unexpected `:` in an interpolation; to write a literal `${`, escape it as `$${`"
                    .to_string()
            } else {
                format!(
                    "expected `}}` to end the {what}, found {}; to write a literal `${{`, escape it as `$${{`",
                    kind.describe()
                )
            };
            st(inp).error_r(codes::EXTRA_IN_TEMPLATE_SEQUENCE, range, message);
            if recover_to(inp, K::TemplateSeqEnd) {
                let s = st(inp);
                let end = s.last_end;
                return s
                    .text
                    .get(end.saturating_sub(2) as usize..end as usize)
                    .is_some_and(|t| t == "~}");
            }
            false
        }
    }
}

/// `interpolation = "${" expression "}"`.
fn interpolation<'s>(
    expression: PExpr<'s>,
    quoted: bool,
) -> impl Parser<'s, In<'s>, Option<Flat<'s>>, Ex<'s>> + Clone {
    custom(move |inp: &mut Inp<'s, '_>| {
        if peek_kind(inp) != Some(K::TemplateInterp) {
            return Err(EmptyErr::default());
        }
        let save = inp.save();
        let open = bump(inp).ok_or(EmptyErr::default())?;
        if !enter(inp) {
            inp.rewind(save);
            skip_group(inp);
            return Ok(Some(Flat::Broken));
        }
        let left = inp.state().0.slice(open.range).ends_with('~');
        let expr = expr(inp, &expression)?;
        let right = sequence_end(inp, open.range, quoted, "interpolation");
        let s = &mut inp.state().0;
        s.depth = s.depth.saturating_sub(1);
        Ok(Some(Flat::Interp(
            Interpolation {
                expr,
                strip: Strip { left, right },
                range: s.range_from(open.range.start),
            }
            .covered(),
        )))
    })
}

/// `directive = "%{" directive_head "}"`.
fn directive<'s>(
    expression: PExpr<'s>,
    quoted: bool,
) -> impl Parser<'s, In<'s>, Option<Flat<'s>>, Ex<'s>> + Clone {
    let head = directive_head(expression, quoted);
    custom(move |inp: &mut Inp<'s, '_>| {
        if peek_kind(inp) != Some(K::TemplateControl) {
            return Err(EmptyErr::default());
        }
        let save = inp.save();
        bump(inp);
        let ok = enter(inp);
        inp.rewind(save);
        if !ok {
            skip_group(inp);
            return Ok(Some(Flat::Broken));
        }
        let flat = inp.parse(&head)?;
        let s = &mut inp.state().0;
        s.depth = s.depth.saturating_sub(1);
        Ok(flat)
    })
}

/// `directive_head = "if" expression | "else" | "endif" | "for" IDENT
/// [ "," IDENT ] "in" expression | "endfor"`.
fn directive_head<'s>(
    expression: PExpr<'s>,
    quoted: bool,
) -> impl Parser<'s, In<'s>, Option<Flat<'s>>, Ex<'s>> + Clone {
    custom(move |inp: &mut Inp<'s, '_>| {
        let open = bump(inp).ok_or(EmptyErr::default())?;
        let left = st(inp).slice(open.range).ends_with('~');
        let open = open.range;
        if peek_kind(inp) != Some(K::Ident) {
            let range = peek_range(inp);
            st(inp).error_r(
                codes::INVALID_TEMPLATE_DIRECTIVE,
                range,
                "expected `if`, `else`, `endif`, `for` or `endfor` after `%{`",
            );
            recover_to(inp, K::TemplateSeqEnd);
            return Ok(Some(Flat::Broken));
        }
        let keyword_sig = bump(inp).ok_or(EmptyErr::default())?;
        let keyword = st(inp).slice(keyword_sig.range);
        let strip = |right| Strip { left, right };
        Ok(Some(match keyword {
            "if" => {
                let condition = expr(inp, &expression)?;
                let right = sequence_end(inp, open, quoted, "if directive");
                Flat::If {
                    condition,
                    strip: strip(right),
                    range: st(inp).range_from(open.start),
                }
            }
            "else" | "endif" | "endfor" => {
                let right = sequence_end(inp, open, quoted, "directive");
                let range = st(inp).range_from(open.start);
                let strip = strip(right);
                match keyword {
                    "else" => Flat::Else { strip, range },
                    "endif" => Flat::EndIf { strip, range },
                    _ => Flat::EndFor { strip, range },
                }
            }
            "for" => {
                let fail = |inp: &mut Inp<'s, '_>, message: &str| {
                    let range = peek_range(inp);
                    st(inp).error_r(codes::INVALID_FOR, range, message.to_string());
                    recover_to(inp, K::TemplateSeqEnd);
                    Ok(None)
                };
                let (key_var, value_var, collection) = match for_head(inp, &expression)? {
                    Ok(head) => head,
                    Err(message) => return fail(inp, message),
                };
                let right = sequence_end(inp, open, quoted, "for directive");
                Flat::For(Box::new(FlatFor {
                    key_var,
                    value_var,
                    collection,
                    strip: strip(right),
                    range: st(inp).range_from(open.start),
                }))
            }
            other => {
                let suggestion = pcl_diagnostics::suggest::did_you_mean(
                    other,
                    ["if", "for", "else", "endif", "endfor"],
                );
                let mut message = format!("`{other}` is not a template directive keyword");
                if let Some(first) = suggestion.first() {
                    message.push_str(&format!("; did you mean `{first}`?"));
                }
                st(inp).error_r(
                    codes::INVALID_TEMPLATE_DIRECTIVE,
                    keyword_sig.range,
                    message,
                );
                recover_to(inp, K::TemplateSeqEnd);
                return Ok(Some(Flat::Broken));
            }
        }))
    })
}

// ----------------------------------------------------------------------
// Bodies
// ----------------------------------------------------------------------

type PBody<'s> = Boxed<'s, 's, In<'s>, Body, Ex<'s>>;

/// `body`: items and newlines until the end of input (`in_block` false)
/// or a `}` (left for `block_rest`).
fn body<'s>(block_body: BodyRec<'s>, in_block: bool, expression: PExpr<'s>) -> PBody<'s> {
    let item = body_item(block_body, expression);
    let stray = custom(move |inp: &mut Inp<'s, '_>| {
        let Some(sig) = peek(inp) else {
            return Err(EmptyErr::default());
        };
        let s = st(inp);
        s.item_start = Some(sig.range.start);
        match sig.kind {
            K::OQuote => s.error_r(
                codes::QUOTED_ATTRIBUTE_NAME,
                sig.range,
                "attribute names must not be quoted",
            ),
            K::CBrace => s.error_r(
                codes::UNEXPECTED_CLOSE_BRACE,
                sig.range,
                "unexpected `}`: no block is open here",
            ),
            kind => s.error_r(
                codes::EXPECTED_ATTRIBUTE_OR_BLOCK,
                sig.range,
                format!(
                    "expected an attribute or block definition, found {}",
                    kind.describe()
                ),
            ),
        }
        let before = inp.cursor();
        recover_line(inp);
        if inp.cursor() == before {
            bump(inp);
        }
        Ok(None)
    });
    // One line at a time, chosen by the next token's kind; a failing
    // line is rewound and ends the body, like `repeated`.
    custom(move |inp: &mut Inp<'s, '_>| {
        // A block body's items go on the scratch stack. The top level's
        // (the one list that grows with the file) get their own `Vec`:
        // on the scratch stack they made it large, and glibc consolidates
        // its free lists whenever a chunk of 64 KiB or more is freed
        // (callgrind: +3 % on a 1 MB file).
        let base = st(inp).scratch.items.len();
        let mut top = Vec::new();
        loop {
            st(inp).recovering = false;
            let before = inp.save();
            let line = match peek_kind(inp) {
                None => break,
                Some(K::Newline) => {
                    bump(inp);
                    continue;
                }
                Some(K::Ident) => match inp.parse(&item) {
                    Ok(line) => Ok(line),
                    Err(_) => {
                        inp.rewind(before.clone());
                        inp.parse(stray)
                    }
                },
                Some(K::CBrace) if in_block => break,
                Some(_) => inp.parse(stray),
            };
            match line {
                Ok(Some(item)) if !in_block => top.push(item),
                Ok(Some(item)) => st(inp).scratch.items.push(item),
                Ok(None) => {}
                Err(_) => {
                    inp.rewind(before);
                    break;
                }
            }
        }
        let s = st(inp);
        s.recovering = false;
        let items = if in_block {
            take_run(&mut s.scratch.items, base)
        } else {
            top.shrink_to_fit();
            top
        };
        check_duplicates(s, &items);
        Ok(Body {
            items,
            range: TextRange::default(),
            dangling_comments: Vec::new(),
        }
        .covered())
    })
    .boxed()
}

/// Reports attributes defined twice in one body.
fn check_duplicates(s: &mut St<'_>, items: &[BodyItem]) {
    let attrs = || {
        items.iter().filter_map(|item| match item {
            BodyItem::Attribute(attr) => Some(attr),
            BodyItem::Block(_) => None,
        })
    };
    let count = attrs().count();
    if count < 2 {
        return;
    }
    let mut dups = Vec::new();
    if count <= 16 {
        // Small bodies (nearly all): a quadratic scan beats hashing.
        for (idx, attr) in attrs().enumerate() {
            if let Some(first) = attrs().take(idx).find(|a| a.name.name == attr.name.name) {
                dups.push((attr.name.range, attr.name().to_string(), first.name.range));
            }
        }
    } else {
        let mut seen: std::collections::HashMap<&str, TextRange> =
            std::collections::HashMap::with_capacity(count);
        for attr in attrs() {
            match seen.get(attr.name()) {
                Some(first) => dups.push((attr.name.range, attr.name().to_string(), *first)),
                None => {
                    seen.insert(attr.name(), attr.name.range);
                }
            }
        }
    }
    for (range, name, first) in dups {
        s.diags.push(
            Diagnostic::error(
                codes::DUPLICATE_ATTRIBUTE,
                Span::new(s.file, range),
                format!("attribute `{name}` is already defined in this body"),
            )
            .with_related(Span::new(s.file, first), "first defined here"),
        );
    }
}

/// Sets a body's range and dangling comments.
fn finish_body(s: &St<'_>, mut body: Body, range: TextRange) -> Body {
    body.dangling_comments = comments::dangling(s.text, s.tokens, s.comments, range, &body.items);
    body.range = range;
    body.covered()
}

/// `body_item = IDENT ( attribute_rest | block_rest ) ( NEWLINE | EOF )`.
fn body_item<'s>(
    block_body: BodyRec<'s>,
    expression: PExpr<'s>,
) -> Boxed<'s, 's, In<'s>, Option<BodyItem>, Ex<'s>> {
    let attr = attribute_rest(expression.clone());
    let block = block_rest(block_body, expression);
    custom(move |inp: &mut Inp<'s, '_>| {
        let name_sig = bump(inp).ok_or(EmptyErr::default())?;
        let s = st(inp);
        s.item_start = Some(name_sig.range.start);
        let name = s.ident_of(name_sig);
        let mut item = match peek_kind(inp) {
            Some(K::Equal) => {
                let a = inp.parse(&attr)?;
                item_end(inp, true);
                BodyItem::Attribute(Attribute { name, ..a }.covered())
            }
            Some(K::OQuote | K::OBrace | K::Ident) => {
                let mut b = inp.parse(&block)?;
                b.range = TextRange::new(name.range.start, b.range.end);
                b.type_name = name;
                item_end(inp, false);
                BodyItem::Block(Box::new(b.covered()))
            }
            other => {
                let range = peek_range(inp);
                let found = other.map_or("the end of the file", K::describe);
                st(inp).error_r(
                    codes::EXPECTED_ATTRIBUTE_OR_BLOCK,
                    range,
                    format!(
                        "expected `=` (attribute) or a block label or `{{` after `{}`, found {found}",
                        name.name
                    ),
                );
                recover_line(inp);
                return Ok(None);
            }
        };
        let s = st(inp);
        let first_idx = s.token_index(name_sig);
        let last_idx = last_token_index(s, first_idx);
        comments::attach(s.text, s.tokens, &mut item, first_idx, last_idx);
        Ok(Some(item))
    })
    .boxed()
}

/// The index of the last non-trivia token ending at or before `last_end`.
fn last_token_index(s: &St<'_>, first: usize) -> usize {
    let mut idx = s.tokens.count_ending_by(s.last_end);
    while idx > first {
        idx -= 1;
        if let Some(token) = s.tokens.get(idx) {
            if !token.kind.is_trivia() && token.kind != K::Newline {
                return idx;
            }
        }
    }
    first
}

/// After an item: a newline, the end of input or (in a block) `}`.
fn item_end(inp: &mut Inp<'_, '_>, attribute: bool) {
    let range = peek_range(inp);
    let blocks = st(inp).depth_of_blocks;
    match peek_kind(inp) {
        None | Some(K::Newline) => {}
        Some(K::CBrace) if blocks > 0 && attribute => st(inp).error_r(
            codes::MISSING_NEWLINE_AFTER_ATTRIBUTE,
            range,
            "expected a newline after the attribute value; the closing `}` of a multi-line block goes on its own line",
        ),
        Some(K::CBrace) if blocks > 0 => st(inp).error_r(
            codes::MISSING_NEWLINE_AFTER_BLOCK,
            range,
            "expected a newline after the block's closing `}`",
        ),
        Some(kind) => {
            if attribute {
                let message = if kind == K::Comma {
                    "unexpected `,` after the attribute value: attributes are separated by newlines".to_string()
                } else {
                    format!(
                        "expected a newline after the attribute value, found {}",
                        kind.describe()
                    )
                };
                st(inp).error_r(codes::MISSING_NEWLINE_AFTER_ATTRIBUTE, range, message);
            } else {
                st(inp).error_r(
                    codes::MISSING_NEWLINE_AFTER_BLOCK,
                    range,
                    format!(
                        "expected a newline after the block's closing `}}`, found {}",
                        kind.describe()
                    ),
                );
            }
            recover_line(inp);
        }
    }
}

fn placeholder_ident() -> Ident {
    Ident {
        name: "".into(),
        range: TextRange::default(),
    }
}

/// `attribute_rest = "=" expression` (the name is filled in by the caller).
fn attribute_rest<'s>(expression: PExpr<'s>) -> Boxed<'s, 's, In<'s>, Attribute, Ex<'s>> {
    custom(move |inp: &mut Inp<'s, '_>| {
        let equals = bump(inp).ok_or(EmptyErr::default())?;
        let expr = match peek_kind(inp) {
            None | Some(K::Newline) => {
                let range = peek_range(inp);
                let s = st(inp);
                let equals_idx = s.token_index(equals);
                let name = s
                    .tokens
                    .iter_back(equals_idx)
                    .find(|t| t.kind == K::Ident)
                    .map_or("", |t| s.slice(t.range));
                s.error_r(
                    codes::MISSING_ATTRIBUTE_VALUE,
                    TextRange::new(equals.range.start, range.start.max(equals.range.end)),
                    format!("expected a value for `{name}` after `=` on the same line"),
                );
                Expr::new(ExprKind::Error, TextRange::empty(equals.range.end))
            }
            _ => expr(inp, &expression)?,
        };
        let equals_idx = st(inp).token_index(equals);
        let name_start = st(inp)
            .tokens
            .iter_back(equals_idx)
            .find(|t| t.kind == K::Ident)
            .map_or(equals.range.start, |t| t.range.start);
        let range = TextRange::new(name_start, expr.range.end.max(equals.range.end));
        // Covered by the caller, once the name is in place.
        Ok(Attribute {
            name: placeholder_ident(),
            expr,
            equals_range: equals.range,
            range,
            leading_comments: Vec::new(),
            trailing_comments: Vec::new(),
        })
    })
    .boxed()
}

/// `block_rest = { IDENT | quoted_label } "{" ( body | one_line_body ) "}"`
/// (the type name and the range start are filled in by the caller).
fn block_rest<'s>(
    block_body: BodyRec<'s>,
    expression: PExpr<'s>,
) -> Boxed<'s, 's, In<'s>, Block, Ex<'s>> {
    // Identifiers and quoted labels, until a token that is neither (a
    // failing quoted label is rewound and ends them, as `repeated` would),
    // collected on the scratch stack into an exact-size `Vec`.
    let labels = custom(|inp: &mut Inp<'s, '_>| {
        let base = st(inp).scratch.labels.len();
        loop {
            let label = match peek(inp) {
                Some(sig) if sig.kind == K::Ident => {
                    bump(inp);
                    Label {
                        value: st(inp).slice(sig.range).into(),
                        quoted: false,
                        range: sig.range,
                    }
                }
                Some(sig) if sig.kind == K::OQuote => {
                    let before = inp.save();
                    match quoted_label(inp) {
                        Ok(label) => label,
                        Err(_) => {
                            inp.rewind(before);
                            break;
                        }
                    }
                }
                _ => break,
            };
            st(inp).scratch.labels.push(label);
        }
        Ok::<_, EmptyErr>(take_run(&mut st(inp).scratch.labels, base))
    });
    let one_line = one_line_body(expression);
    labels
        .then(custom(move |inp: &mut Inp<'s, '_>| {
            if peek_kind(inp) != Some(K::OBrace) {
                let range = peek_range(inp);
                let message = match peek_kind(inp) {
                    Some(K::Equal) => "unexpected `=` in a block header: `=` defines an attribute, a block has no `=`".to_string(),
                    Some(K::Newline) | None => "expected `{` to open the block body on the same line as the block header".to_string(),
                    Some(kind) => format!("expected a quoted block label or `{{`, found {}", kind.describe()),
                };
                st(inp).error_r(codes::INVALID_BLOCK_HEADER, range, message);
                recover_line(inp);
                return Ok(None);
            }
            let open = bump(inp).ok_or(EmptyErr::default())?;
            let body = match peek_kind(inp) {
                Some(K::CBrace) | Some(K::Newline) | None => {
                    if enter(inp) {
                        st(inp).depth_of_blocks += 1;
                        let body = inp.parse(&block_body)?;
                        st(inp).depth_of_blocks -= 1;
                        leave(inp);
                        let end = peek_range(inp).start;
                        finish_body(st(inp), body, TextRange::new(open.range.end, end))
                    } else {
                        let saved = st(inp).item_start.take();
                        recover_to(inp, K::CBrace);
                        st(inp).item_start = saved;
                        let range = st(inp).range_from(open.range.end);
                        Body {
                            items: Vec::new(),
                            range,
                            dangling_comments: Vec::new(),
                        }.covered()
                    }
                }
                _ => inp.parse(&one_line)?,
            };
            let close = if peek_kind(inp) == Some(K::CBrace) {
                bump(inp).map_or(TextRange::default(), |s| s.range)
            } else if st(inp).depth_reported && body.items.is_empty() && st(inp).last_end > open.range.end {
                TextRange::empty(st(inp).last_end)
            } else {
                let s = st(inp);
                s.error_r(codes::UNCLOSED_BLOCK, open.range, "this block's `{` has no matching `}`");
                TextRange::empty(s.last_end)
            };
            let end = close.end.max(st(inp).last_end);
            Ok(Some((open.range, body, close, end)))
        }))
        .map(|(labels, rest)| {
            match rest {
            Some((open, body, close, end)) => Block {
                type_name: placeholder_ident(),
                labels,
                body,
                open_brace_range: open,
                close_brace_range: close,
                range: TextRange::new(0, end),
                leading_comments: Vec::new(),
                trailing_comments: Vec::new(),
            }.covered(),
            None => Block {
                type_name: placeholder_ident(),
                labels,
                body: Body {
                    items: Vec::new(),
                    range: TextRange::default(),
                    dangling_comments: Vec::new(),
                }.covered(),
                open_brace_range: TextRange::default(),
                close_brace_range: TextRange::default(),
                range: TextRange::default(),
                leading_comments: Vec::new(),
                trailing_comments: Vec::new(),
            },
        }
        })
        .map_with(|mut block, e| {
            if block.open_brace_range == TextRange::default() && block.range == TextRange::default() {
                let end = e.state().0.last_end;
                block.body.range = TextRange::empty(end);
                block.open_brace_range = TextRange::empty(end);
                block.close_brace_range = TextRange::empty(end);
                block.range = TextRange::new(0, end);
            }
            block
        })
        .boxed()
}

/// `one_line_body = IDENT attribute_rest`, on the line of the `{`.
fn one_line_body<'s>(expression: PExpr<'s>) -> PBody<'s> {
    let attr = attribute_rest(expression);
    custom(move |inp: &mut Inp<'s, '_>| {
        let start = st(inp).last_end;
        let mut items = Vec::new();
        let save = inp.save();
        let first = next(inp);
        let second = peek(inp).map(|s| s.kind);
        inp.rewind(save);
        match first {
            Some(name_sig) if name_sig.kind == K::Ident && second == Some(K::Equal) => {
                bump(inp);
                let name = st(inp).ident_of(name_sig);
                let a = inp.parse(&attr)?;
                items.push(BodyItem::Attribute(Attribute { name, ..a }.covered()));
            }
            _ => {
                let range = peek_range(inp);
                st(inp).error_r(
                    codes::INVALID_ONE_LINE_BLOCK,
                    range,
                    "a single-line block may only contain one attribute (`name = value`); put nested blocks on their own lines",
                );
            }
        }
        match peek_kind(inp) {
            Some(K::CBrace) | None => {}
            Some(kind) => {
                let range = peek_range(inp);
                let message = match kind {
                    K::Comma => "a single-line block may only contain one attribute",
                    K::Newline => "a single-line block must be closed with `}` on the same line",
                    _ => "expected `}` right after the single attribute of a single-line block",
                };
                st(inp).error_r(codes::INVALID_ONE_LINE_BLOCK, range, message);
                skip_to_close_brace(inp);
            }
        }
        let end = peek_range(inp).start.max(start);
        Ok(Body {
            items,
            range: TextRange::new(start, end),
            dangling_comments: Vec::new(),
        }.covered())
    })
    .boxed()
}

/// Like `recover_to(CBrace)`, but leaves the `}` unconsumed.
fn skip_to_close_brace(inp: &mut Inp<'_, '_>) {
    let mut depth: usize = 0;
    while let Some(sig) = peek(inp) {
        if is_open(sig.kind) {
            depth += 1;
        } else if is_close(sig.kind) {
            if depth == 0 {
                return;
            }
            depth -= 1;
        } else if sig.kind == K::Newline && st(inp).item_starts_after(sig) {
            return;
        }
        bump(inp);
    }
}

/// A quoted block label: escapes resolved, no template sequences.
fn quoted_label(inp: &mut Inp<'_, '_>) -> Result<Label, EmptyErr> {
    match peek_kind(inp) {
        Some(K::OQuote) => {}
        _ => return Err(EmptyErr::default()),
    }
    let open = bump(inp).ok_or(EmptyErr::default())?;
    // The common label, `"text"` without escapes or sequences: its text
    // as written.
    if let (Some(lit), Some(K::CQuote)) = (peek(inp), peek2_kind(inp)) {
        let raw = st(inp).slice(lit.range);
        if lit.kind == K::QuotedLit && !literal::has_escape_or_sigil(raw) {
            let value = Name::new(raw);
            bump(inp);
            bump(inp);
            return Ok(Label {
                value,
                quoted: true,
                range: st(inp).range_from(open.range.start),
            });
        }
    }
    let mut value = String::new();
    let mut errors = Vec::new();
    loop {
        match peek(inp) {
            Some(sig) if sig.kind == K::QuotedLit => {
                bump(inp);
                let raw = st(inp).slice(sig.range);
                let mut escape_errors = Vec::new();
                value.push_str(&literal::decode_quoted(raw, &mut escape_errors));
                for e in escape_errors {
                    errors.push((
                        TextRange::from_usize(
                            sig.range.start as usize + e.start..sig.range.start as usize + e.end,
                        ),
                        e.message,
                    ));
                }
            }
            Some(sig) if sig.kind == K::CQuote => {
                bump(inp);
                break;
            }
            Some(sig) if matches!(sig.kind, K::TemplateInterp | K::TemplateControl) => {
                let sigil = st(inp).slice(sig.range).get(..1).unwrap_or("$");
                bump(inp);
                recover_to(inp, K::TemplateSeqEnd);
                let s = st(inp);
                let range = s.range_from(sig.range.start);
                s.error(
                    codes::TEMPLATE_IN_LABEL,
                    range,
                    format!("template sequences are not allowed in a block label; write `{sigil}{sigil}{{` for a literal `{sigil}{{`"),
                );
                value.push_str(if sigil == "$" { "${ ... }" } else { "%{ ... }" });
            }
            Some(sig) if sig.kind == K::Invalid => {
                bump(inp);
            }
            _ => {
                st(inp).error_r(
                    codes::UNTERMINATED_TEMPLATE,
                    open.range,
                    "this string has no closing `\"` on its line",
                );
                break;
            }
        }
    }
    let s = st(inp);
    for (range, message) in errors {
        s.error(codes::INVALID_ESCAPE, range, message);
    }
    Ok(Label {
        value: value.into(),
        quoted: true,
        range: s.range_from(open.range.start),
    })
}

// ----------------------------------------------------------------------
// Entry points
// ----------------------------------------------------------------------

/// The three entry parsers, built once per thread.
pub(crate) struct Grammars<'s> {
    file: PBody<'s>,
    expr: PExpr<'s>,
    template: Boxed<'s, 's, In<'s>, usize, Ex<'s>>,
}

#[derive(Default)]
pub(crate) struct Build;

impl Cached for Build {
    type Parser<'s> = Grammars<'s>;

    fn make_parser<'s>(self) -> Grammars<'s> {
        let expression = expression();
        // `recursive` refers to itself through a weak reference: the
        // grammar is freed with its cache (when a parsing thread ends).
        // `Recursive::declare` + `define` made a strong reference cycle,
        // leaked once per thread (the "280-byte leak" LeakSanitizer
        // reported in the fuzz runs).
        let block_body = recursive(|block_body| body(block_body, true, expression.clone()));
        let file = body(block_body.clone(), false, expression.clone());
        Grammars {
            file,
            expr: expression.clone(),
            template: template_parts(expression, false).boxed(),
        }
    }
}

thread_local! {
    static GRAMMARS: Cache<Build> = Cache::default();
}

fn new_state<'s>(
    file: FileId,
    text: &'s str,
    tokens: &'s Tokens,
    sigs: &'s [u32],
    comments: &'s [u32],
) -> SimpleState<St<'s>> {
    let mut st = St {
        file,
        text,
        tokens,
        sigs,
        comments,
        diags: Vec::new(),
        lexer_errors: 0,
        recovering: false,
        depth: 0,
        depth_reported: false,
        depth_of_blocks: 0,
        item_start: None,
        last_end: 0,
        scratch: Scratch::default(),
        flats: Vec::new(),
        solid_literal_end: None,
    };
    if text.len() > u32::MAX as usize {
        st.recovering = true;
    }
    SimpleState(st)
}

/// Reports the lexer's error tokens (`errors`: their indices, in order,
/// from [`significant_tokens`]).
fn lexer_diagnostics(s: &mut St<'_>, errors: &[u32]) {
    let errors: Vec<Token> = errors
        .iter()
        .filter_map(|idx| s.tokens.get(*idx as usize))
        .collect();
    for token in errors {
        let (code, message) = match token.kind {
            K::Invalid => {
                let ch = s.slice(token.range);
                let message = match ch {
                    "\u{201c}" | "\u{201d}" => {
                        "curly quotes are not valid here; use a straight quote (\")".to_string()
                    }
                    _ => format!("invalid character {:?}: it is not used in the language", ch),
                };
                (codes::INVALID_CHARACTER, message)
            }
            K::BitwiseAnd => (
                codes::UNSUPPORTED_OPERATOR,
                "bitwise operators are not supported; did you mean `&&`?".to_string(),
            ),
            K::BitwiseOr => (
                codes::UNSUPPORTED_OPERATOR,
                "bitwise operators are not supported; did you mean `||`?".to_string(),
            ),
            K::BitwiseXor => (
                codes::UNSUPPORTED_OPERATOR,
                "bitwise operators are not supported".to_string(),
            ),
            K::BitwiseNot => (
                codes::UNSUPPORTED_OPERATOR,
                "bitwise operators are not supported; did you mean `!`?".to_string(),
            ),
            K::Apostrophe => (
                codes::SINGLE_QUOTE,
                "single quotes are not valid; use double quotes (\") for strings".to_string(),
            ),
            K::Backtick => (
                codes::BACKTICK,
                "backticks are not valid; use a heredoc (<<EOT) for multi-line strings".to_string(),
            ),
            K::Semicolon => (
                codes::SEMICOLON,
                "`;` is not valid; separate items with newlines (or commas in collections)"
                    .to_string(),
            ),
            _ => continue,
        };
        s.diags.push(Diagnostic::error(
            code,
            Span::new(s.file, token.range),
            message,
        ));
    }
    s.lexer_errors = s.diags.len();
}

pub(crate) fn parse_file(file: FileId, text: &str, tokens: &Tokens) -> (Body, Vec<Diagnostic>) {
    let (mut errors, mut comments) = (Vec::new(), Vec::new());
    let sigs = significant_tokens(text, tokens, true, &mut errors, &mut comments);
    let mut state = new_state(file, text, tokens, &sigs, &comments);
    lexer_diagnostics(&mut state.0, &errors);
    let body = GRAMMARS.with(|g| {
        g.get()
            .file
            .parse_with_state(sigs.as_slice(), &mut state)
            .into_output()
    });
    let body = body.unwrap_or(
        Body {
            items: Vec::new(),
            range: TextRange::default(),
            dangling_comments: Vec::new(),
        }
        .covered(),
    );
    let range = TextRange::new(0, text.len() as u32);
    let body = finish_body(&state.0, body, range);
    (body, state.0.diags)
}

#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn parse_expression_file(
    file: FileId,
    text: &str,
    tokens: &Tokens,
) -> (Expr, Vec<Diagnostic>) {
    let (mut errors, mut comments) = (Vec::new(), Vec::new());
    let sigs = significant_tokens(text, tokens, false, &mut errors, &mut comments);
    let mut state = new_state(file, text, tokens, &sigs, &comments);
    lexer_diagnostics(&mut state.0, &errors);
    let parser = GRAMMARS.with(|g| {
        let expr = g.get().expr.clone();
        expr.then(custom(|inp: &mut Inp<'_, '_>| {
            if let Some(sig) = peek(inp) {
                st(inp).error_r(
                    codes::EXTRA_AFTER_EXPRESSION,
                    sig.range,
                    format!(
                        "expected the end of the expression, found {}",
                        sig.kind.describe()
                    ),
                );
            }
            while next(inp).is_some() {}
            Ok(())
        }))
        .map(|(e, ())| e)
        .parse_with_state(sigs.as_slice(), &mut state)
        .into_output()
    });
    let expr = parser.unwrap_or(Expr::new(ExprKind::Error, TextRange::empty(0)));
    (expr, state.0.diags)
}

#[cfg_attr(not(test), allow(dead_code))]
pub(crate) fn parse_template_file(
    file: FileId,
    text: &str,
    tokens: &Tokens,
) -> (Template, Vec<Diagnostic>) {
    // Outside sequences a bare template has only template tokens; inside
    // them line breaks are ignored. A leading BOM stays visible, as a
    // stray token.
    // A bare template has no separate lexer-error pass.
    let mut comments = Vec::new();
    let mut sigs = significant_tokens(text, tokens, false, &mut Vec::new(), &mut comments);
    if tokens.kind(0) == Some(K::Bom) {
        sigs.insert(0, 0);
    }
    let mut state = new_state(file, text, tokens, &sigs, &comments);
    let flat = GRAMMARS.with(|g| {
        g.get()
            .template
            .clone()
            .then(custom(|inp: &mut Inp<'_, '_>| {
                while let Some(sig) = next(inp) {
                    st(inp).last_end = sig.range.end;
                    st(inp).error_r(
                        codes::UNBALANCED_TEMPLATE_DIRECTIVE,
                        sig.range,
                        format!("unexpected {}", sig.kind.describe()),
                    );
                }
                Ok(())
            }))
            .map(|(f, ())| f)
            .parse_with_state(sigs.as_slice(), &mut state)
            .into_output()
    });
    let parts = finish(&mut state.0, flat.unwrap_or_default(), false);
    (
        Template {
            kind: TemplateKind::Bare,
            parts: parts.into_boxed_slice(),
        },
        state.0.diags,
    )
}
