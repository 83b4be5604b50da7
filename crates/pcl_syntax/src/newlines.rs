//! The newline pre-pass: decides, from bracket context alone, which line
//! breaks are significant (syntax.md §3.1) and produces the token slice
//! the chumsky grammar (`grammar/`) parses.
//!
//! One linear scan keeps a stack of open brackets. A line break is
//! significant when the innermost opener is a body (top level or a block's
//! `{`) or an object constructor's `{`, and ignored inside `(`, `[`, `${`,
//! `%{` and an object `{ for` (where `for` may follow line breaks). A `#`
//! or `//` comment contains its line break and becomes a `Newline` where
//! line breaks count; every other trivia token is dropped. The result
//! (`grammar::SigSet`) is one byte per token of the full vector: the kind
//! the grammar reads there, or none; the grammar's input
//! (`grammar::SigInput`) walks the full vector through it, so a token's
//! place in the full vector, and thus every byte, is at hand.
//!
//! Recovery for unclosed `(` / `[`: a line break inside them followed by a
//! line that starts a body item (`name =`, `name {`, `name "`, `name name`
//! at or left of the current item's column) closes them, so the rest of the
//! file keeps its line structure.

use pcl_diagnostics::TextRange;

use crate::grammar::SigSet;
use crate::token::{TokenKind as K, Tokens};

/// A token the grammar sees, built on the fly from its index in the full
/// token vector (see `St::sig` in `grammar/mod.rs`): a significant line
/// comment has the kind `Newline`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sig {
    pub(crate) kind: K,
    pub(crate) range: TextRange,
    /// The token's index in the full token vector.
    pub(crate) idx: u32,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    /// A body: line breaks significant.
    Body,
    /// An object constructor: line breaks significant.
    Object,
    /// `(` or `[`: ignored, and closed by a new body item.
    Bracket(K),
    /// `${`, `%{`, `{ for`: ignored.
    Ignored(K),
}

impl Ctx {
    fn significant(self) -> bool {
        matches!(self, Ctx::Body | Ctx::Object)
    }
    fn closer(self) -> Option<K> {
        match self {
            Ctx::Body => None,
            Ctx::Object => Some(K::CBrace),
            Ctx::Bracket(k) | Ctx::Ignored(k) => Some(k),
        }
    }
}

fn column_of(text: &str, offset: u32) -> usize {
    let before = text.get(..offset as usize).unwrap_or("");
    match before.rfind('\n') {
        Some(idx) => before.len() - idx - 1,
        None => before.len(),
    }
}

/// After the line break at `idx`: does a body item start on the next line
/// at or left of `column` (computed only when the next line starts with a
/// name: it scans back to a line start)?
pub(crate) fn item_starts_after(
    text: &str,
    tokens: &Tokens,
    idx: usize,
    column: impl FnOnce() -> usize,
) -> bool {
    let kinds = tokens.kinds();
    // The next token that is not a blank or a block comment, from `at`.
    let skip_blanks = |mut at: usize| {
        while matches!(kinds.get(at), Some(K::Whitespace | K::BlockComment)) {
            at += 1;
        }
        at
    };
    let first = skip_blanks(idx + 1);
    if kinds.get(first) != Some(&K::Ident) {
        return false;
    }
    let first_column = tokens
        .start(first)
        .map_or(0, |start| column_of(text, start));
    if first_column > column() {
        return false;
    }
    matches!(
        kinds.get(skip_blanks(first + 1)),
        Some(K::Equal | K::OBrace | K::OQuote | K::Ident)
    )
}

/// Is the next non-trivia, non-newline token after `idx` the keyword `for`?
fn for_follows(text: &str, tokens: &Tokens, idx: usize) -> bool {
    tokens
        .iter_from(idx + 1)
        .find(|t| !t.kind.is_trivia() && t.kind != K::Newline)
        .is_some_and(|t| t.kind == K::Ident && text.get(t.range.to_usize()) == Some("for"))
}

/// The grammar's input: for every token of `tokens`, the kind the grammar
/// reads there, or `None` where it sees nothing. `top_significant`: line breaks count at the top level (a file)
/// or not (a standalone expression). The indices of the lexer's error
/// tokens (`Invalid`, `Semicolon`, …) are added to `errors`, those of
/// comments to `comments`, in order.
///
/// The last kept kind and the innermost context (whether line breaks
/// count in it, whether it is a body) are locals, read again from the
/// stack only after a token that can change it. The frequent tokens, a
/// line break where line breaks count and the identifier starting a line
/// cost a jump and a store; the rest take the context logic in
/// [`Pass::slow`].
pub(crate) fn significant_tokens(
    text: &str,
    tokens: &Tokens,
    top_significant: bool,
    errors: &mut Vec<u32>,
    comments: &mut Vec<u32>,
) -> SigSet {
    let kinds = tokens.kinds();
    // Filled in place (a store per token, no capacity test).
    let mut out: Vec<Option<K>> = vec![None; kinds.len()];
    let mut count = 0;
    let mut pass = Pass {
        text,
        tokens,
        errors,
        comments,
        // Room for typical nesting without growing.
        stack: Vec::with_capacity(32),
        item_start: None,
    };
    pass.stack.push(if top_significant {
        Ctx::Body
    } else {
        Ctx::Ignored(K::Invalid)
    });
    // Whether no token has been kept since the last kept line break.
    let mut line_start = true;
    // The innermost context: one where line breaks count; a body.
    let (mut top_significant, mut top_body) = (top_significant, top_significant);
    // The kind of the last kept token (a kept line comment counts as a
    // line break), in a register (the slow path takes and returns it).
    let mut last_kind = K::Newline;
    for (idx, (slot, &kind)) in out.iter_mut().zip(kinds).enumerate() {
        let kept = match kind {
            K::Whitespace | K::Bom => None,
            // The most frequent tokens that open, close or report
            // nothing (all but the first identifier of a line): kept
            // without the context logic of the slow path, exactly as its
            // `_` arm would.
            K::Ident if !line_start => Some(kind),
            K::NumberLit
            | K::Equal
            | K::Dot
            | K::Comma
            | K::OQuote
            | K::CQuote
            | K::QuotedLit
            | K::StringLit
            | K::Colon => {
                line_start = false;
                Some(kind)
            }
            // A line break where line breaks count (the most frequent
            // token of the slow path), and the identifier starting a
            // line: decided here from the innermost context, kept in
            // locals.
            K::Newline if top_significant => {
                line_start = true;
                Some(kind)
            }
            K::Ident => {
                if top_body {
                    pass.item_start = tokens.start(idx);
                }
                line_start = false;
                Some(kind)
            }
            _ => {
                // Inputs past `u32::MAX` bytes are rejected by the grammar
                // anyway (see `new_state`), and have fewer tokens than
                // bytes: indices fit in u32.
                let kept = pass.slow(kind, idx as u32, last_kind);
                if let Some(kept) = kept {
                    line_start = kept == K::Newline;
                }
                let top = pass.stack.last().copied().unwrap_or(Ctx::Body);
                top_significant = top.significant();
                top_body = top == Ctx::Body;
                kept
            }
        };
        if let Some(kept) = kept {
            last_kind = kept;
            count += 1;
        }
        *slot = kept;
    }
    SigSet::from_kinds(out, count)
}

/// The state of [`significant_tokens`] that its slow path reads and
/// changes.
struct Pass<'a> {
    text: &'a str,
    tokens: &'a Tokens,
    errors: &'a mut Vec<u32>,
    comments: &'a mut Vec<u32>,
    stack: Vec<Ctx>,
    /// Where the current body item starts; its column is computed only
    /// when a line break inside brackets needs it.
    item_start: Option<u32>,
}

impl Pass<'_> {
    /// A token the loop does not decide itself (`last_kind`: the last kept
    /// token's kind): the kind it is kept as (`Newline` for a kept line
    /// break or line comment), or `None` when it is dropped.
    #[inline]
    fn slow(&mut self, kind: K, index: u32, last_kind: K) -> Option<K> {
        let (text, tokens) = (self.text, self.tokens);
        let idx = index as usize;
        let top = self.stack.last().copied().unwrap_or(Ctx::Body);
        match kind {
            K::Whitespace | K::Bom => return None,
            K::BlockComment => {
                self.comments.push(index);
                return None;
            }
            K::Newline | K::HashComment | K::SlashComment => {
                if kind != K::Newline {
                    self.comments.push(index);
                }
                let is_break = kind == K::Newline
                    || tokens
                        .get(idx)
                        .and_then(|t| text.get(t.range.to_usize()))
                        .is_some_and(|t| t.ends_with('\n'));
                if !is_break {
                    return None;
                }
                if !top.significant() {
                    let closes = matches!(top, Ctx::Bracket(_))
                        && self.item_start.is_some_and(|start| {
                            item_starts_after(text, tokens, idx, || column_of(text, start))
                        });
                    if !closes {
                        return None;
                    }
                    while self.stack.last().is_some_and(|c| !c.significant()) {
                        self.stack.pop();
                    }
                }
                return Some(K::Newline);
            }
            K::OParen | K::OBrack => self.stack.push(Ctx::Bracket(if kind == K::OParen {
                K::CParen
            } else {
                K::CBrack
            })),
            K::TemplateInterp | K::TemplateControl => {
                self.stack.push(Ctx::Ignored(K::TemplateSeqEnd))
            }
            K::OBrace => {
                let block_body = top == Ctx::Body && matches!(last_kind, K::Ident | K::CQuote);
                if block_body {
                    self.stack.push(Ctx::Body);
                } else if for_follows(text, tokens, idx) {
                    self.stack.push(Ctx::Ignored(K::CBrace));
                } else {
                    self.stack.push(Ctx::Object);
                }
            }
            K::CParen | K::CBrack | K::CBrace | K::TemplateSeqEnd => {
                if let Some(pos) = self.stack.iter().rposition(|c| {
                    c.closer() == Some(kind) || (*c == Ctx::Body && kind == K::CBrace)
                }) {
                    if pos > 0 {
                        self.stack.truncate(pos);
                    }
                }
            }
            K::Invalid
            | K::BitwiseAnd
            | K::BitwiseOr
            | K::BitwiseXor
            | K::BitwiseNot
            | K::Apostrophe
            | K::Backtick
            | K::Semicolon => self.errors.push(index),
            _ => {}
        }
        Some(kind)
    }
}
