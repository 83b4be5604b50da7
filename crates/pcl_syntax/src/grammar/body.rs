//! Bodies: the productions `body`, `body_item`, `attribute_rest`,
//! `block_rest`, `one_line_body` and `quoted_label` of `grammar/pcl.ebnf`,
//! and the attachment of comments to the items they build.

use chumsky::prelude::*;
use pcl_diagnostics::TextRange;

use super::expressions::{expr, PExpr};
use super::input::SyntaxError;
use super::recovery::{enter, leave, recover_line, recover_to, skip_to_closer};
use super::{bump, next, peek, peek2_kind, peek_kind, peek_range, st, Ex, Expr, In, Inp, St};
use crate::codes;
use crate::comments;
use crate::literal;
use crate::token::TokenKind as K;
use crate::tree::builder::slice;
use crate::tree::{BlockNode, BodyId, CommentNode, ItemNode, LabelNode, Run, Text};

pub(super) type PBody<'s> = Boxed<'s, 's, In<'s>, Run, Ex<'s>>;
pub(super) type BodyRec<'s> = Recursive<chumsky::recursive::Direct<'s, 's, In<'s>, Run, Ex<'s>>>;

/// `body`: items and newlines until the end of input (`in_block` false)
/// or a `}` (left for `block_rest`).
pub(super) fn body<'s>(
    block_body: BodyRec<'s>,
    in_block: bool,
    expression: PExpr<'s>,
) -> PBody<'s> {
    let item = body_item(block_body, expression);
    let stray = custom(move |inp: &mut Inp<'s, '_>| {
        let Some(sig) = peek(inp) else {
            return Err(SyntaxError::default());
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
        let mark = st(inp).b.mark_items();
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
                Ok(Some(item)) => st(inp).b.push_item(item),
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
            s.b.finish_items(mark)
        } else {
            s.b.items_run(top)
        };
        Ok(items)
    })
    .boxed()
}

/// Builds a body of `items` spanning `range`, with its dangling comments.
pub(super) fn finish_body(s: &mut St<'_>, items: Run, range: TextRange) -> BodyId {
    let dangling = comments::dangling(
        s.text,
        s.tokens,
        s.comments,
        range,
        slice(&s.b.tree.items, items),
        &s.b.tree.comments,
    );
    let dangling = push_comments(s, dangling);
    s.b.body(items, range, dangling)
}

fn push_comments(s: &mut St<'_>, list: Vec<CommentNode>) -> Run {
    let mark = s.b.mark_comments();
    for c in list {
        s.b.push_comment(c);
    }
    s.b.finish_comments(mark)
}

/// What `attribute_rest` parses: the `=`, the value and the range from
/// the name to the value.
#[derive(Clone, Copy)]
struct AttrRest {
    equals: TextRange,
    expr: Expr,
    range: TextRange,
}

/// What `block_rest` parses.
#[derive(Clone, Copy)]
struct BlockRest {
    labels: Run,
    body: BodyId,
    open: TextRange,
    close: TextRange,
    end: u32,
}

/// `body_item = IDENT ( attribute_rest | block_rest ) ( NEWLINE | EOF )`.
fn body_item<'s>(
    block_body: BodyRec<'s>,
    expression: PExpr<'s>,
) -> Boxed<'s, 's, In<'s>, Option<ItemNode>, Ex<'s>> {
    let attr = attribute_rest(expression.clone());
    let block = block_rest(block_body, expression);
    custom(move |inp: &mut Inp<'s, '_>| {
        let name_sig = bump(inp).ok_or(SyntaxError::default())?;
        let s = st(inp);
        s.item_start = Some(name_sig.range.start);
        let name = name_sig.range;
        enum Rest {
            Attr(AttrRest),
            Block(BlockRest),
        }
        let rest = match peek_kind(inp) {
            Some(K::Equal) => {
                let a = inp.parse(&attr)?;
                item_end(inp, true);
                Rest::Attr(a)
            }
            Some(K::OQuote | K::OBrace | K::Ident) => {
                let b = inp.parse(&block)?;
                item_end(inp, false);
                Rest::Block(b)
            }
            other => {
                let range = peek_range(inp);
                let found = other.map_or("the end of the file", K::describe);
                let s = st(inp);
                let name = s.slice(name);
                s.error_r(
                    codes::EXPECTED_ATTRIBUTE_OR_BLOCK,
                    range,
                    format!(
                        "expected `=` (attribute) or a block label or `{{` after `{name}`, found {found}"
                    ),
                );
                recover_line(inp);
                return Ok(None);
            }
        };
        let s = st(inp);
        let first_idx = s.token_index(name_sig);
        let last_idx = last_token_index(s, first_idx);
        let (leading, trailing) = comments::attach(s.text, s.tokens, first_idx, last_idx);
        let comments = (push_comments(s, leading), push_comments(s, trailing));
        Ok(Some(match rest {
            Rest::Attr(a) => s.b.attribute(name, a.equals, a.expr.id, a.range, comments),
            Rest::Block(b) => s.b.block(
                BlockNode {
                    type_name: name,
                    labels: b.labels,
                    body: b.body,
                    open_brace: b.open,
                    close_brace: b.close,
                },
                TextRange::new(name.start, b.end),
                comments,
            ),
        }))
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

/// `attribute_rest = "=" expression` (the name is the caller's).
fn attribute_rest<'s>(expression: PExpr<'s>) -> Boxed<'s, 's, In<'s>, AttrRest, Ex<'s>> {
    custom(move |inp: &mut Inp<'s, '_>| {
        let equals = bump(inp).ok_or(SyntaxError::default())?;
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
                s.error_node(TextRange::empty(equals.range.end))
            }
            _ => expr(inp, &expression)?,
        };
        let s = st(inp);
        let equals_idx = s.token_index(equals);
        let name_start = s
            .tokens
            .iter_back(equals_idx)
            .find(|t| t.kind == K::Ident)
            .map_or(equals.range.start, |t| t.range.start);
        let range = TextRange::new(name_start, expr.range.end.max(equals.range.end));
        Ok(AttrRest {
            equals: equals.range,
            expr,
            range,
        })
    })
    .boxed()
}

/// `block_rest = { IDENT | quoted_label } "{" ( body | one_line_body ) "}"`
/// (the type name is the caller's).
fn block_rest<'s>(
    block_body: BodyRec<'s>,
    expression: PExpr<'s>,
) -> Boxed<'s, 's, In<'s>, BlockRest, Ex<'s>> {
    // Identifiers and quoted labels, until a token that is neither (a
    // failing quoted label is rewound and ends them, as `repeated` would).
    let labels = custom(|inp: &mut Inp<'s, '_>| {
        let mark = st(inp).b.mark_labels();
        loop {
            let label = match peek(inp) {
                Some(sig) if sig.kind == K::Ident => {
                    bump(inp);
                    LabelNode {
                        value: Text::Source(sig.range),
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
            st(inp).b.push_label(label);
        }
        Ok::<_, SyntaxError>(st(inp).b.finish_labels(mark))
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
            let open = bump(inp).ok_or(SyntaxError::default())?;
            let body = match peek_kind(inp) {
                Some(K::CBrace) | Some(K::Newline) | None => {
                    if enter(inp) {
                        st(inp).depth_of_blocks += 1;
                        let items = inp.parse(&block_body)?;
                        st(inp).depth_of_blocks -= 1;
                        leave(inp);
                        let end = peek_range(inp).start;
                        finish_body(st(inp), items, TextRange::new(open.range.end, end))
                    } else {
                        let saved = st(inp).item_start.take();
                        recover_to(inp, K::CBrace);
                        let s = st(inp);
                        s.item_start = saved;
                        let range = s.range_from(open.range.end);
                        s.b.body(Run::default(), range, Run::default())
                    }
                }
                _ => inp.parse(&one_line)?,
            };
            let empty = st(inp).b.body_items(body).len == 0;
            let close = if peek_kind(inp) == Some(K::CBrace) {
                bump(inp).map_or(TextRange::default(), |s| s.range)
            } else if st(inp).depth_reported && empty && st(inp).last_end > open.range.end {
                TextRange::empty(st(inp).last_end)
            } else {
                let s = st(inp);
                s.error_r(codes::UNCLOSED_BLOCK, open.range, "this block's `{` has no matching `}`");
                TextRange::empty(s.last_end)
            };
            let end = close.end.max(st(inp).last_end);
            Ok(Some((open.range, body, close, end)))
        }))
        .map_with(|(labels, rest), e| match rest {
            Some((open, body, close, end)) => BlockRest {
                labels,
                body,
                open,
                close,
                end,
            },
            None => {
                let s = &mut e.state().0;
                let end = s.last_end;
                let at = TextRange::empty(end);
                let body = s.b.body(Run::default(), at, Run::default());
                BlockRest {
                    labels,
                    body,
                    open: at,
                    close: at,
                    end,
                }
            }
        })
        .boxed()
}

/// `one_line_body = IDENT attribute_rest`, on the line of the `{`.
fn one_line_body<'s>(expression: PExpr<'s>) -> Boxed<'s, 's, In<'s>, BodyId, Ex<'s>> {
    let attr = attribute_rest(expression);
    custom(move |inp: &mut Inp<'s, '_>| {
        let start = st(inp).last_end;
        let mut item = None;
        let save = inp.save();
        let first = next(inp);
        let second = peek(inp).map(|s| s.kind);
        inp.rewind(save);
        match first {
            Some(name_sig) if name_sig.kind == K::Ident && second == Some(K::Equal) => {
                bump(inp);
                let a = inp.parse(&attr)?;
                let s = st(inp);
                let none = (Run::default(), Run::default());
                item = Some(s.b.attribute(name_sig.range, a.equals, a.expr.id, a.range, none));
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
                skip_to_closer(inp);
            }
        }
        let end = peek_range(inp).start.max(start);
        let s = st(inp);
        let items = s.b.items_run(item.into_iter().collect());
        Ok(s.b.body(items, TextRange::new(start, end), Run::default()))
    })
    .boxed()
}

/// `quoted_label = O_QUOTE { QUOTED_LIT } C_QUOTE`: escapes resolved, no
/// template sequences.
fn quoted_label(inp: &mut Inp<'_, '_>) -> Result<LabelNode, SyntaxError> {
    match peek_kind(inp) {
        Some(K::OQuote) => {}
        _ => return Err(SyntaxError::default()),
    }
    let open = bump(inp).ok_or(SyntaxError::default())?;
    // The common label, `"text"` without escapes or sequences: its text
    // as written.
    if let (Some(lit), Some(K::CQuote)) = (peek(inp), peek2_kind(inp)) {
        let raw = st(inp).slice(lit.range);
        if lit.kind == K::QuotedLit && !literal::has_escape_or_sigil(raw) {
            bump(inp);
            bump(inp);
            return Ok(LabelNode {
                value: Text::Source(lit.range),
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
    let range = s.range_from(open.range.start);
    let text = s.text;
    Ok(LabelNode {
        value: s.b.text(text, range, &value),
        quoted: true,
        range,
    })
}
