//! The chumsky grammar: significant tokens (see `newlines.rs`; the input,
//! `input.rs`, walks the full token vector through a set of one bit per
//! token) → the flat [`crate::tree`] plus diagnostics. This module holds the parser state and the entry
//! productions `parse_file`, `parse_expression_file` and
//! `parse_template_file` of `grammar/pcl.ebnf`; the other productions live
//! by grammar area in `body.rs`, `expressions.rs`, `postfix.rs`,
//! `collections.rs` and `templates.rs`, error recovery and the nesting
//! limit in `recovery.rs`, and the first-token `dispatch` (a `choice`
//! that tries only the alternatives the next token can start) in
//! `dispatch.rs`.
//!
//! Production names follow `grammar/pcl.ebnf` (`tests/ebnf.rs` checks
//! it). Productions never fail once they have committed: a syntax error is
//! reported into the parser state ([`St`]) and produces an `Error` node,
//! and recovery (`recover_with(via_parser(…))` with the skipping parsers
//! of `recovery.rs`) skips the rest of the broken construct, so one
//! mistake gives one diagnostic and parsing resumes at the next body item.
//! The state's `recovering` flag silences follow-up errors until the next
//! body item starts.
//!
//! The tree is built bottom-up through the state's [`Builder`]: a node is
//! appended once its children exist, and every list (a body's items, a
//! call's arguments, …) is pushed onto the builder's scratch stack of its
//! type and moved into the arena as one run when it is complete. A list
//! given up on (its parser failed and is rewound) is discarded from the
//! scratch stack; nodes built by a rewound parser stay in the arenas,
//! unreferenced (it happens only on inputs that rewind after building).
//! Side effects on the state (building, reporting) happen in
//! `try_map_with`/`validate`, which chumsky runs whether or not the output
//! is used, never in `map_with`.
//!
//! Depth: every nesting production runs under `recovery::depth_limited`,
//! which counts levels in the state and, at [`MAX_NESTING_DEPTH`], reports
//! `nesting-too-deep` and skips the balanced group without recursion.
//! The stack is grown once per parse, not per recursive entry: [`run`]
//! makes sure the depth limit's worst case fits (chumsky's `stacker`
//! feature, which checks at every entry of a `recursive` parser, is off;
//! checking once saved 2.3 M instructions on the 1 MB generated file).
//!
//! The parsers are built once per thread (a chumsky [`Cache`]).
//!
//! [`MAX_NESTING_DEPTH`]: crate::MAX_NESTING_DEPTH

mod body;
mod collections;
mod dispatch;
mod expressions;
mod input;
mod postfix;
mod recovery;
mod templates;

use chumsky::cache::{Cache, Cached};
use chumsky::extra;
use chumsky::input::InputRef;
use chumsky::input::MapExtra;
use chumsky::inspector::SimpleState;
use chumsky::prelude::*;
use pcl_diagnostics::{Code, Diagnostic, DiagnosticList, FileId, Span, TextRange};

use crate::codes;
use crate::newlines::{item_starts_after, significant_tokens, Sig};
use crate::token::{Token, TokenKind as K, Tokens};
use crate::tree::builder::Builder;
use crate::tree::{BodyId, ExprId, ExprNodeKind, Tree};
pub(crate) use input::SigSet;
use input::{SigInput, SyntaxError};

use body::BodyRec;
use expressions::PExpr;
use templates::Flat;

/// The grammar's input: the significant tokens (see `input.rs`).
type In<'s> = SigInput<'s>;

/// An expression built already: its id and (covered) range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Expr {
    id: ExprId,
    range: TextRange,
}

/// The parser state.
pub(crate) struct St<'s> {
    file: FileId,
    text: &'s str,
    tokens: &'s Tokens,
    /// The grammar's input, for looking past the next token.
    input: SigInput<'s>,
    /// The indices of every comment token, in order.
    comments: &'s [u32],
    diags: DiagnosticList,
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
    /// End offset of the last significant token before the cursor (set
    /// from the cursor by [`st`] and [`bump`]).
    last_end: u32,
    /// The name of the attribute being parsed (`attribute_rest` comes
    /// after it).
    attr_name: TextRange,
    /// The label of the block header being parsed when it is one quoted
    /// label (`name "w"`, which may be an attribute missing its `=`).
    lone_quoted_label: Option<TextRange>,
    /// Where the errors that recovery parsers answered for start (see
    /// `recovery::handled`).
    handled: Vec<u32>,
    /// The term a postfix chain starts from, handed from `postfix_expr`'s
    /// term to the chain's fold (set by the one, taken by the other).
    chain_term: Option<Expr>,
    /// The first operand of a binary expression, handed from `binary`'s
    /// first operand to its fold likewise, and the binary expression,
    /// handed to the conditional's `? …` as its condition.
    first_operand: Option<Expr>,
    /// The tree under construction.
    b: Builder,
    /// The flat parts of the templates under construction: each
    /// `template_parts` pushes its run above the enclosing template's, and
    /// `finish` takes it off.
    flats: Vec<Flat<'s>>,
    /// The end offset of the quoted literal at the top of `flats` when
    /// every literal token merged into it has a non-whitespace character,
    /// so the next such token can be merged into it at once (see
    /// `push_quoted_literal`).
    solid_literal_end: Option<u32>,
}

type Ex<'s> = extra::Full<SyntaxError, SimpleState<St<'s>>, ()>;
type Inp<'s, 'p> = InputRef<'s, 'p, In<'s>, Ex<'s>>;

impl<'s> St<'s> {
    fn slice(&self, range: TextRange) -> &'s str {
        self.text.get(range.to_usize()).unwrap_or("")
    }
    /// Appends an expression node (its range widened over its children).
    #[inline]
    fn mk(&mut self, kind: ExprNodeKind, range: TextRange) -> Expr {
        let id = self.b.expr(kind, range);
        Expr {
            id,
            range: self.b.expr_range(id),
        }
    }
    /// A handle on a node built by a builder helper.
    fn handle(&self, id: ExprId) -> Expr {
        Expr {
            id,
            range: self.b.expr_range(id),
        }
    }
    fn error_node(&mut self, range: TextRange) -> Expr {
        self.mk(ExprNodeKind::Error, range)
    }
    fn is_error(&self, e: Expr) -> bool {
        self.b.is_error(e.id)
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
    /// Whether the line from `from` on reads as a block header: it ends
    /// with a `{` or `}` (`a 1 {}`), or it ends and the next line starts
    /// with the block's `{`. (Only the rest of one line and the line
    /// breaks after it are looked at.)
    fn block_follows(&self, from: u32) -> bool {
        let split = self.tokens.count_ending_by(from);
        let mut tokens = self.tokens.iter_from(split).filter(|t| !t.kind.is_trivia());
        let mut last = None;
        for t in tokens.by_ref() {
            if t.kind == K::Newline {
                break;
            }
            last = Some(t.kind);
        }
        match last {
            Some(K::OBrace | K::CBrace) => true,
            Some(_) => false,
            None => tokens.find(|t| t.kind != K::Newline).map(|t| t.kind) == Some(K::OBrace),
        }
    }
    /// [`St::error_r`] with a fix-it: replace `fix` with `replacement`.
    fn error_r_fix(
        &mut self,
        code: Code,
        range: TextRange,
        message: impl Into<String>,
        fix: TextRange,
        replacement: &str,
    ) {
        let before = self.diags.len();
        self.error_r(code, range, message);
        if self.diags.len() > before {
            let span = Span::new(self.file, fix);
            if let Some(d) = self.diags.last_mut() {
                *d = d.clone().with_fix(span, replacement);
            }
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
            item_starts_after(self.text, self.tokens, self.token_index(sig), || {
                self.column_of(start)
            })
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
}

// ----------------------------------------------------------------------
// Token-level helpers (used inside `custom` parsers)
// ----------------------------------------------------------------------

/// The parser state, with `last_end` set from the cursor (tokens
/// consumed by combinators, and rewinds, move the cursor without `bump`).
fn st<'s, 'a>(inp: &'a mut Inp<'s, '_>) -> &'a mut St<'s> {
    let end = inp.cursor().inner().prev_end;
    let s = &mut inp.state().0;
    s.last_end = end;
    s
}

/// The parser state without that update (for looking at tokens).
fn raw<'s, 'a>(inp: &'a mut Inp<'s, '_>) -> &'a mut St<'s> {
    &mut inp.state().0
}

/// The next significant token, not consumed.
fn peek(inp: &mut Inp<'_, '_>) -> Option<Sig> {
    let idx = inp.cursor().inner().idx as usize;
    let s = raw(inp);
    s.input.kind(idx)?;
    Some(s.sig(idx as u32))
}

/// Consumes the next significant token (see [`bump`], which also records
/// its end).
fn next(inp: &mut Inp<'_, '_>) -> Option<Sig> {
    let idx = inp.cursor().inner().idx as usize;
    inp.next()?;
    Some(raw(inp).sig(idx as u32))
}

/// The span a token test at the cursor reports.
fn peek_span(inp: &mut Inp<'_, '_>) -> SimpleSpan<u32> {
    let idx = inp.cursor().inner().idx as usize;
    raw(inp).input.span_at(idx)
}

/// The kind of the significant token after the next one (`None` at the
/// end).
fn peek_second(inp: &mut Inp<'_, '_>) -> Option<K> {
    let idx = inp.cursor().inner().idx as usize;
    let input = &raw(inp).input;
    input.kind(input.next_from(idx + 1))
}

fn peek_kind(inp: &mut Inp<'_, '_>) -> Option<K> {
    let idx = inp.cursor().inner().idx as usize;
    raw(inp).input.kind(idx)
}

fn peek_range(inp: &mut Inp<'_, '_>) -> TextRange {
    match peek(inp) {
        Some(s) => s.range,
        None => st(inp).eof(),
    }
}

#[inline]
fn bump(inp: &mut Inp<'_, '_>) -> Option<Sig> {
    let sig = next(inp)?;
    raw(inp).last_end = sig.range.end;
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

/// A chumsky span of [`SigInput`] as a range.
fn range_of(span: SimpleSpan<u32>) -> TextRange {
    TextRange::new(span.start, span.end)
}

/// One token of `kind`: its range.
fn token<'s>(kind: K) -> impl Parser<'s, In<'s>, TextRange, Ex<'s>> + Clone {
    just(kind).map_with(|_, e| range_of(e.span()))
}

/// The parser state, from a `map_with`/`try_map_with`/`validate` closure.
fn state_of<'a, 's>(e: &'a mut MapExtra<'s, '_, In<'s>, Ex<'s>>) -> &'a mut St<'s> {
    &mut e.state().0
}

/// The next significant token, as [`next_token`] sees it.
#[derive(Clone, Copy, Debug)]
struct Next {
    /// `None` at the end of the input.
    kind: Option<K>,
    /// The token's range (an empty range where the input ends).
    span: TextRange,
}

impl Next {
    /// The token's range; at the end, the empty range at the end of the
    /// text (where diagnostics "at the end" point).
    fn range(&self, s: &St<'_>) -> TextRange {
        match self.kind {
            Some(_) => self.span,
            None => s.eof(),
        }
    }
}

/// The error of a parser that declines at `next` (used with
/// `try_map_with`): nothing expected of its own, and the span and token
/// of where it stopped, so that merged with the errors of alternatives
/// failing at the same token it changes nothing they say.
fn decline(next: Next) -> SyntaxError {
    decline_at(next.span, next.kind)
}

/// [`decline`] at `span` (where `found` is, `None` at the end).
fn decline_at(span: TextRange, found: Option<K>) -> SyntaxError {
    SyntaxError::at(SimpleSpan::from(span.start..span.end), found)
}

/// The next token's kind and range, or the end of the input, without
/// consuming it. A failing alternative that branches on it reads one
/// token; nothing is re-parsed.
fn next_token<'s>() -> impl Parser<'s, In<'s>, Next, Ex<'s>> + Clone {
    any()
        .or_not()
        .map_with(|kind, e| Next {
            kind,
            span: range_of(e.span()),
        })
        .rewind()
}

/// The keyword `word`: an identifier with that text (keywords are not
/// reserved: `for = 1` is an attribute). Its range.
fn keyword<'s>(word: &'static str) -> impl Parser<'s, In<'s>, TextRange, Ex<'s>> + Clone {
    just(K::Ident).try_map_with(move |_, e| {
        let range = range_of(e.span());
        let state: &mut SimpleState<St<'s>> = e.state();
        if state.0.slice(range) == word {
            Ok(range)
        } else {
            Err(SyntaxError::unexpected(e.span(), K::Ident))
        }
    })
}

// ----------------------------------------------------------------------
// Entry points
// ----------------------------------------------------------------------

/// The three entry parsers, built once per thread.
pub(crate) struct Grammars<'s> {
    file: body::PBody<'s>,
    expr: PExpr<'s>,
    template: Boxed<'s, 's, In<'s>, usize, Ex<'s>>,
}

#[derive(Default)]
pub(crate) struct Build;

impl Cached for Build {
    type Parser<'s> = Grammars<'s>;

    fn make_parser<'s>(self) -> Grammars<'s> {
        let expression = expressions::expression();
        // `recursive` refers to itself through a weak reference: the
        // grammar is freed with its cache (when a parsing thread ends).
        // `Recursive::declare` + `define` made a strong reference cycle,
        // leaked once per thread (the "280-byte leak" LeakSanitizer
        // reported in the fuzz runs).
        let block_body: BodyRec<'s> =
            recursive(|block_body| body::body(block_body, true, expression.clone()));
        let file = body::body(block_body.clone(), false, expression.clone());
        Grammars {
            file,
            expr: expression.clone(),
            template: templates::bare_template(expression),
        }
    }
}

thread_local! {
    static GRAMMARS: Cache<Build> = Cache::default();
}

/// What a parse produces: the tree, its root (a body, an expression or a
/// template, by entry point) and the diagnostics.
pub(crate) struct Output {
    pub(crate) tree: Tree,
    pub(crate) root: u32,
    pub(crate) diagnostics: DiagnosticList,
}

fn new_state<'s>(
    file: FileId,
    text: &'s str,
    tokens: &'s Tokens,
    sigs: &'s SigSet,
    comments: &'s [u32],
) -> SimpleState<St<'s>> {
    let mut st = St {
        file,
        text,
        tokens,
        input: SigInput::new(tokens, sigs),
        comments,
        diags: DiagnosticList::new(),
        lexer_errors: 0,
        recovering: false,
        depth: 0,
        depth_reported: false,
        depth_of_blocks: 0,
        item_start: None,
        attr_name: TextRange::default(),
        lone_quoted_label: None,
        handled: Vec::new(),
        last_end: 0,
        chain_term: None,
        first_operand: None,
        b: Builder::for_source(text.len(), sigs.count()),
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

/// Reports the errors chumsky returned (those `recover_with` recovered
/// from, and a failure at the top), after the ones the productions
/// reported as they went. An error a recovery parser answered for (see
/// `recovery::handled`) was reported (or silenced) by it; an error at the
/// start of one already reported is the same problem.
fn report_errors(s: &mut St<'_>, errors: &[SyntaxError]) {
    if errors.is_empty() {
        return;
    }
    let mut handled = std::mem::take(&mut s.handled);
    handled.sort_unstable();
    let mut reported: Vec<u32> = s.diags.iter().map(|d| d.span.range.start).collect();
    reported.sort_unstable();
    for error in errors {
        if handled.binary_search(&error.span.start).is_ok() {
            continue;
        }
        let (code, range, message) = error.diagnostic();
        if reported.binary_search(&range.start).is_ok() {
            continue;
        }
        s.error(code, range, message);
    }
}

/// The most stack a parse can use, with a margin: recursion is bounded by
/// the depth limit, and 128 levels of the deepest construct took about
/// 3 MiB in a debug build and 384 KiB in a release build
/// (`examples/stackprobe.rs`: every nesting construct past the limit, on
/// threads of shrinking stacks). The debug figure has a fourfold margin;
/// the release one a 2.6-fold one, small enough that a thread with the
/// default 2 MiB stack (a rayon worker of `pcl check`, the language
/// server's) parses on its own stack: with 2 MiB asked, every parse there
/// mapped and unmapped a new stack (three system calls per file).
const STACK_NEEDED: usize = if cfg!(debug_assertions) {
    12 << 20
} else {
    1 << 20
};

/// Runs an entry parser over the significant tokens with the state, and
/// reports what chumsky returned ([`report_errors`]). The parse runs on
/// the current stack when [`STACK_NEEDED`] is left of it, else on a new
/// stack of twice that.
fn run<'s, O>(
    parser: impl Parser<'s, In<'s>, O, Ex<'s>>,
    tokens: &'s Tokens,
    sigs: &'s SigSet,
    state: &mut SimpleState<St<'s>>,
) -> Option<O> {
    let (out, errors) = stacker::maybe_grow(STACK_NEEDED, 2 * STACK_NEEDED, || {
        parser
            .parse_with_state(SigInput::new(tokens, sigs), state)
            .into_output_errors()
    });
    report_errors(&mut state.0, &errors);
    out
}

/// `parse_file = @nl(on) body`: the whole input as a body.
pub(crate) fn parse_file(file: FileId, text: &str, tokens: &Tokens) -> Output {
    let (mut errors, mut comments) = (Vec::new(), Vec::new());
    let sigs = significant_tokens(text, tokens, true, &mut errors, &mut comments);
    let mut state = new_state(file, text, tokens, &sigs, &comments);
    lexer_diagnostics(&mut state.0, &errors);
    let mark = state.0.b.mark_items();
    let items = GRAMMARS.with(|g| run(&g.get().file, tokens, &sigs, &mut state));
    let s = &mut state.0;
    let items = match items {
        Some(items) => items,
        None => {
            s.b.discard_items(mark);
            s.b.finish_items(mark)
        }
    };
    let range = TextRange::new(0, text.len() as u32);
    let BodyId(root) = body::finish_body(s, items, range);
    let tree = std::mem::take(&mut s.b).finish();
    crate::validate::file(
        crate::tree::BodyRef::new(crate::tree::Src::new(&tree, text), BodyId(root)),
        file,
        &mut s.diags,
    );
    Output {
        tree,
        root,
        diagnostics: state.0.diags,
    }
}

/// `parse_expression_file = @nl(off) expression` (then the end of the
/// input).
pub(crate) fn parse_expression_file(file: FileId, text: &str, tokens: &Tokens) -> Output {
    let (mut errors, mut comments) = (Vec::new(), Vec::new());
    let sigs = significant_tokens(text, tokens, false, &mut errors, &mut comments);
    let mut state = new_state(file, text, tokens, &sigs, &comments);
    lexer_diagnostics(&mut state.0, &errors);
    let parser = GRAMMARS.with(|g| {
        let expr = g.get().expr.clone();
        // Whatever follows the expression: the first token is reported
        // (unless the expression's own error covers it), all are skipped.
        let extra = next_token().try_map_with(|next, e| {
            if let Some(kind) = next.kind {
                state_of(e).error_r(
                    codes::EXTRA_AFTER_EXPRESSION,
                    next.span,
                    format!(
                        "expected the end of the expression, found {}",
                        kind.describe()
                    ),
                );
            }
            Ok(())
        });
        let parser = expr.then_ignore(extra).then_ignore(any().repeated());
        run(parser, tokens, &sigs, &mut state)
    });
    let s = &mut state.0;
    let root = match parser {
        Some(e) => e,
        None => s.error_node(TextRange::empty(0)),
    };
    Output {
        tree: state.0.b.finish(),
        root: root.id.0,
        diagnostics: state.0.diags,
    }
}

/// `parse_template_file = bare_template`.
pub(crate) fn parse_template_file(file: FileId, text: &str, tokens: &Tokens) -> Output {
    // Outside sequences a bare template has only template tokens; inside
    // them line breaks are ignored. A leading BOM stays visible, as a
    // stray token.
    // A bare template has no separate lexer-error pass.
    let mut comments = Vec::new();
    let mut sigs = significant_tokens(text, tokens, false, &mut Vec::new(), &mut comments);
    if tokens.kind(0) == Some(K::Bom) {
        sigs.insert(0, K::Bom);
    }
    let mut state = new_state(file, text, tokens, &sigs, &comments);
    let flat = GRAMMARS.with(|g| run(&g.get().template, tokens, &sigs, &mut state));
    let s = &mut state.0;
    let parts = templates::finish(s, flat.unwrap_or_default(), false);
    let root = s.b.bare_template(parts);
    Output {
        tree: state.0.b.finish(),
        root,
        diagnostics: state.0.diags,
    }
}
