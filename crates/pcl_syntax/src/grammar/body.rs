//! Bodies: the productions `body`, `body_item`, `attribute_rest`,
//! `block_rest`, `one_line_body` and `quoted_label` of `grammar/pcl.ebnf`,
//! and the attachment of comments to the items they build.
//!
//! A broken body item is recovered from by `recover_with(via_parser(…))`:
//! the recovery parser reports the precise diagnostic and skips the rest
//! of the item (`skip_line`); a block whose header has no `{` likewise.
//! Tokens that cannot start a body item at all are a `stray` line.

use chumsky::container::Container;
use chumsky::prelude::*;
use pcl_diagnostics::TextRange;

use super::dispatch::{dispatch, First};
use super::expressions::PExpr;
use super::recovery::{depth_limited, handled, skip_balanced, skip_line, skip_to, skip_to_close};
use super::{decline, next_token, range_of, state_of, token, Ex, Expr, In, Next, St};
use crate::codes;
use crate::comments;
use crate::literal;
use crate::token::TokenKind as K;
use crate::tree::builder::slice;
use crate::tree::{BlockNode, BodyId, CommentNode, ItemNode, LabelNode, Run, Text};

pub(super) type PBody<'s> = Boxed<'s, 's, In<'s>, Run, Ex<'s>>;
pub(super) type BodyRec<'s> = Recursive<chumsky::recursive::Direct<'s, 's, In<'s>, Run, Ex<'s>>>;

/// The items of the top-level body, as `repeated().collect()` gathers
/// them (lines without an item add nothing).
///
/// The top level's items (the one list that grows with the file) get
/// their own `Vec`, a block's go on the builder's scratch stack: on the
/// scratch stack they made it large, and glibc consolidates its free
/// lists whenever a chunk of 64 KiB or more is freed (callgrind: +3 % on
/// a 1 MB file).
#[derive(Default)]
struct TopItems(Vec<ItemNode>);

impl Container<Option<ItemNode>> for TopItems {
    fn push(&mut self, item: Option<ItemNode>) {
        self.0.extend(item);
    }
}

/// `body = { NEWLINE | body_item } ( EOF | &"}" )`: in a block
/// (`in_block`), up to the `}` (left for `block_rest`); at the top, the
/// whole input.
pub(super) fn body<'s>(
    block_body: BodyRec<'s>,
    in_block: bool,
    expression: PExpr<'s>,
) -> PBody<'s> {
    // Each line starts out of recovery.
    let fresh = empty().try_map_with(|(), e| {
        state_of(e).recovering = false;
        Ok(())
    });
    let line = fresh.ignore_then(choice((
        body_item(block_body, expression),
        just(K::Newline).to(None),
        stray(in_block),
    )));
    if in_block {
        let mark = empty().try_map_with(|(), e| Ok(state_of(e).b.mark_items()));
        let item = line.try_map_with(|item, e| {
            if let Some(item) = item {
                state_of(e).b.push_item(item);
            }
            Ok(())
        });
        mark.then_ignore(item.repeated())
            .try_map_with(|mark, e| {
                let s = state_of(e);
                s.recovering = false;
                Ok(s.b.finish_items(mark))
            })
            .boxed()
    } else {
        line.repeated()
            .collect::<TopItems>()
            .try_map_with(|TopItems(items), e| {
                let s = state_of(e);
                s.recovering = false;
                Ok(s.b.items_run(items))
            })
            .boxed()
    }
}

/// A line that starts with a token no body item starts with (in a block,
/// anything but its `}`): reported, and skipped up to the line break.
fn stray<'s>(in_block: bool) -> impl Parser<'s, In<'s>, Option<ItemNode>, Ex<'s>> + Clone {
    next_token()
        .try_map_with(move |next, e| {
            let s = state_of(e);
            let kind = match next.kind {
                Some(K::CBrace) if in_block => return Err(decline(next)),
                Some(kind) => kind,
                None => return Err(decline(next)),
            };
            s.item_start = Some(next.span.start);
            match kind {
                K::OQuote => s.error_r(
                    codes::QUOTED_ATTRIBUTE_NAME,
                    next.span,
                    "attribute names must not be quoted",
                ),
                K::CBrace => s.error_r(
                    codes::UNEXPECTED_CLOSE_BRACE,
                    next.span,
                    "unexpected `}`: no block is open here",
                ),
                kind => s.error_r(
                    codes::EXPECTED_ATTRIBUTE_OR_BLOCK,
                    next.span,
                    format!(
                        "expected an attribute or block definition, found {}",
                        kind.describe()
                    ),
                ),
            }
            Ok(())
        })
        // A stray `}` is skipped alone: skipping the line would stop at it.
        .ignore_then(just(K::CBrace).ignored().or(skip_line().ignored()))
        .to(None)
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

/// A block after its labels: `{`, its body and `}` (see `braces`).
#[derive(Clone, Copy)]
struct Braced {
    body: BodyId,
    open: TextRange,
    close: TextRange,
    end: u32,
}

#[derive(Clone, Copy)]
enum Rest {
    Attr(AttrRest),
    Block(BlockRest),
}

/// `body_item = IDENT ( attribute_rest | block_rest ) ( NEWLINE | EOF )`.
fn body_item<'s>(
    block_body: BodyRec<'s>,
    expression: PExpr<'s>,
) -> Boxed<'s, 's, In<'s>, Option<ItemNode>, Ex<'s>> {
    let name = token(K::Ident).try_map_with(|name, e| {
        let s = state_of(e);
        s.item_start = Some(name.start);
        s.attr_name = name;
        Ok(name)
    });
    // `block_rest` only where a block header can start: after a broken
    // value, the item is given up on (and the line is stray).
    let rest = dispatch(vec![
        (
            First::tokens(&[K::Equal]),
            attribute_rest(expression.clone())
                .then_ignore(item_end(true))
                .map(Rest::Attr)
                .boxed(),
        ),
        (
            First::tokens(&[K::Ident, K::OQuote, K::OBrace]),
            block_rest(block_body, expression)
                .then_ignore(item_end(false))
                .map(Rest::Block)
                .boxed(),
        ),
    ])
    .map(Some);
    // Neither `=` nor a block header after the name: reported, and the
    // line skipped. (A failure further in is not this error.)
    let no_rest = next_token()
        .try_map_with(|next, e| {
            if matches!(next.kind, Some(K::Equal | K::OQuote | K::OBrace | K::Ident)) {
                return Err(decline(next));
            }
            let s = state_of(e);
            handled(s, next.span.start);
            // `name 123`, `name [1]`: what follows can only be a value.
            if matches!(
                next.kind,
                Some(K::NumberLit | K::OBrack | K::OParen | K::Minus | K::Bang | K::OHeredoc)
            ) && !s.block_follows(next.span.start)
            {
                let value = next.range(s);
                missing_equals(s, s.attr_name, value);
                return Ok(());
            }
            let found = next.kind.map_or("the end of the file", K::describe);
            let name = s.slice(s.attr_name);
            let range = next.range(s);
            s.error_r(
                codes::EXPECTED_ATTRIBUTE_OR_BLOCK,
                range,
                format!(
                    "expected `=` (attribute) or a block label or `{{` after `{name}`, found {found}"
                ),
            );
            Ok(())
        })
        .ignore_then(skip_line())
        .to(None);
    name.then(rest.recover_with(via_parser(no_rest)))
        .try_map_with(|(name, rest), e| {
            // The item's tokens: from its name to the next significant
            // token after it.
            let tokens = e.slice();
            let s = state_of(e);
            let Some(rest) = rest else {
                return Ok(None);
            };
            let first_idx = tokens.start as usize;
            let last_idx = last_token_index(s, first_idx, tokens.end as usize);
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

/// The index of the last non-trivia token before `next` (the next
/// significant token after the item: only trivia and line breaks are
/// between the two), after `first`. A scan back over the line break and
/// blank lines after the item, where a search by offset cost about 130
/// instructions per item.
fn last_token_index(s: &St<'_>, first: usize, next: usize) -> usize {
    let mut idx = next;
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

/// After an item: its newline (consumed) or the end of input; anything
/// else is reported (a `}` closing the enclosing block included) and the
/// rest of the line skipped (its newline is then a line of its own).
fn item_end<'s>(attribute: bool) -> impl Parser<'s, In<'s>, (), Ex<'s>> + Clone {
    let bad = next_token().try_map_with(move |next, e| {
        let s = state_of(e);
        let (code, message) = match next.kind {
            None | Some(K::Newline) => return Ok(()),
            Some(K::CBrace) if s.depth_of_blocks > 0 && attribute => (
                codes::MISSING_NEWLINE_AFTER_ATTRIBUTE,
                "expected a newline after the attribute value; the closing `}` of a multi-line block goes on its own line".to_string(),
            ),
            Some(K::CBrace) if s.depth_of_blocks > 0 => (
                codes::MISSING_NEWLINE_AFTER_BLOCK,
                "expected a newline after the block's closing `}`".to_string(),
            ),
            Some(K::Comma) if attribute => (
                codes::MISSING_NEWLINE_AFTER_ATTRIBUTE,
                "unexpected `,` after the attribute value: attributes are separated by newlines".to_string(),
            ),
            Some(kind) if attribute => (
                codes::MISSING_NEWLINE_AFTER_ATTRIBUTE,
                format!("expected a newline after the attribute value, found {}", kind.describe()),
            ),
            Some(kind) => (
                codes::MISSING_NEWLINE_AFTER_BLOCK,
                format!("expected a newline after the block's closing `}}`, found {}", kind.describe()),
            ),
        };
        s.error_r(code, next.span, message);
        Ok(())
    });
    // The skip stops at once at a `}` closing the enclosing block.
    choice((
        just(K::Newline).ignored(),
        end(),
        bad.ignore_then(skip_line()).ignored(),
    ))
}

/// The block types of PCL that take one label, which may be quoted
/// (`output "url"`): a header of one of them with one quoted label and no
/// `{` lacks its `{`, not an `=`.
const ONE_LABEL_BLOCKS: &[&str] = &["output", "package", "pulumi", "locals"];

/// An attribute written without its `=` (`name "w"`, `count 3`): said so,
/// at the name, with the fix-it that inserts it before `value`.
fn missing_equals(s: &mut St<'_>, name: TextRange, value: TextRange) {
    let name_text = s.slice(name).to_string();
    s.error_r_fix(
        codes::EXPECTED_ATTRIBUTE_OR_BLOCK,
        name,
        format!("missing `=` after `{name_text}`: an attribute is written `{name_text} = value`"),
        TextRange::new(name.end, value.start.max(name.end)),
        " = ",
    );
}

/// What follows an attribute's `=`.
#[derive(Clone, Copy)]
enum Value {
    Expr(Expr),
    /// The line (or input) ends here.
    Missing(Next),
}

/// `attribute_rest = "=" expression` (the name, [`St::attr_name`], is the
/// caller's).
fn attribute_rest<'s>(expression: PExpr<'s>) -> impl Parser<'s, In<'s>, AttrRest, Ex<'s>> + Clone {
    let missing = next_token().try_map(|next, _| match next.kind {
        None | Some(K::Newline) => Ok(Value::Missing(next)),
        Some(_) => Err(decline(next)),
    });
    // The value, tried first where one can start (not at a line break or
    // the end of the input, where it is missing).
    let value = none_of([K::Newline])
        .rewind()
        .ignore_then(expression)
        .map(Value::Expr);
    token(K::Equal)
        .then(choice((value, missing)))
        .try_map_with(|(equals, value), e| {
            let s = state_of(e);
            let name = s.attr_name;
            let expr = match value {
                Value::Expr(expr) => expr,
                Value::Missing(next) => {
                    let at = next.range(s);
                    let name_text = s.slice(name);
                    s.error_r(
                        codes::MISSING_ATTRIBUTE_VALUE,
                        TextRange::new(equals.start, at.start.max(equals.end)),
                        format!("expected a value for `{name_text}` after `=` on the same line"),
                    );
                    s.error_node(TextRange::empty(equals.end))
                }
            };
            Ok(AttrRest {
                equals,
                expr,
                range: TextRange::new(name.start, expr.range.end.max(equals.end)),
            })
        })
}

/// `block_rest = { IDENT | quoted_label } "{" ( body "}" | one_line_body "}" )`
/// (the type name is the caller's).
fn block_rest<'s>(
    block_body: BodyRec<'s>,
    expression: PExpr<'s>,
) -> Boxed<'s, 's, In<'s>, BlockRest, Ex<'s>> {
    let label = dispatch(vec![
        (
            First::tokens(&[K::Ident]),
            token(K::Ident)
                .map(|range| LabelNode {
                    value: Text::Source(range),
                    quoted: false,
                    range,
                })
                .boxed(),
        ),
        (First::tokens(&[K::OQuote]), quoted_label().boxed()),
    ])
    .try_map_with(|label, e| {
        state_of(e).b.push_label(label);
        Ok(())
    });
    let labels = empty()
        .try_map_with(|(), e| Ok(state_of(e).b.mark_labels()))
        .then_ignore(label.repeated())
        .try_map_with(|mark, e| {
            let s = state_of(e);
            let run = s.b.finish_labels(mark);
            s.lone_quoted_label = match slice(&s.b.tree.labels, run) {
                [label] if label.quoted => Some(label.range),
                _ => None,
            };
            Ok(run)
        });
    // No `{` after the labels: reported, the line skipped, and the block
    // has an empty body where the header ends. (A failure after the `{`
    // is not this error.)
    let no_brace = next_token()
        .try_map_with(|next, e| {
            let message = match next.kind {
                Some(K::OBrace) => return Err(decline(next)),
                Some(K::Equal) => {
                    "unexpected `=` in a block header: `=` defines an attribute, a block has no `=`"
                        .to_string()
                }
                // `name "w"` or `name "a" + b`: one quoted label, then
                // no `{` (and not a block type that takes one label): an
                // attribute missing its `=`.
                Some(
                    K::Newline
                    | K::Plus
                    | K::Minus
                    | K::Star
                    | K::Slash
                    | K::Percent
                    | K::EqualOp
                    | K::NotEqual
                    | K::LessThan
                    | K::LessThanEq
                    | K::GreaterThan
                    | K::GreaterThanEq
                    | K::And
                    | K::Or
                    | K::Question
                    | K::Dot
                    | K::OBrack,
                )
                | None
                    if state_of(e).lone_quoted_label.is_some_and(|_| {
                        let s = state_of(e);
                        !ONE_LABEL_BLOCKS.contains(&s.slice(s.attr_name))
                            && !s.block_follows(next.span.start)
                    }) =>
                {
                    let s = state_of(e);
                    if let Some(label) = s.lone_quoted_label {
                        missing_equals(s, s.attr_name, label);
                    }
                    handled(s, next.span.start);
                    return Ok(());
                }
                Some(K::Newline) | None => {
                    "expected `{` to open the block body on the same line as the block header"
                        .to_string()
                }
                Some(kind) => format!(
                    "expected a quoted block label or `{{`, found {}",
                    kind.describe()
                ),
            };
            let s = state_of(e);
            handled(s, next.span.start);
            let range = next.range(s);
            s.error_r(codes::INVALID_BLOCK_HEADER, range, message);
            Ok(())
        })
        .ignore_then(skip_line())
        .try_map_with(|end, e| {
            let s = state_of(e);
            let at = TextRange::empty(end);
            let body = s.b.body(Run::default(), at, Run::default());
            Ok(Braced {
                body,
                open: at,
                close: at,
                end,
            })
        });
    labels
        .then(braces(block_body, expression).recover_with(via_parser(no_brace)))
        .map(|(labels, b)| BlockRest {
            labels,
            body: b.body,
            open: b.open,
            close: b.close,
            end: b.end,
        })
        .boxed()
}

/// What is between a block's braces, as parsed.
#[derive(Clone, Copy)]
enum Contents {
    /// A multi-line body's items.
    Items(Run),
    /// A body past the nesting limit, skipped: where it ends.
    Skipped(u32),
    OneLine(Option<ItemNode>),
}

/// `"{" ( body "}" | one_line_body "}" )` of `block_rest`: a multi-line
/// body when the `{` ends its line, else a one-line body. A missing `}` is
/// reported at the `{`.
fn braces<'s>(
    block_body: BodyRec<'s>,
    expression: PExpr<'s>,
) -> impl Parser<'s, In<'s>, Braced, Ex<'s>> + Clone {
    let enter_block = empty().try_map_with(|(), e| {
        state_of(e).depth_of_blocks += 1;
        Ok(())
    });
    let items = enter_block
        .ignore_then(block_body)
        .try_map_with(|items, e| {
            state_of(e).depth_of_blocks -= 1;
            Ok(Contents::Items(items))
        });
    // Past the nesting limit: skipped up to (and with) its `}`.
    let skipped = skip_balanced()
        .then(token(K::CBrace).or_not())
        .map(|(end, close)| Contents::Skipped(close.map_or(end, |c| c.end)));
    let multi_line = one_of([K::CBrace, K::Newline])
        .ignored()
        .or(end())
        .rewind()
        .ignore_then(depth_limited(items, skipped));
    token(K::OBrace)
        .then(choice((
            multi_line,
            one_line_body(expression).map(Contents::OneLine),
        )))
        .then(next_token())
        .then(token(K::CBrace).or_not())
        .try_map_with(|(((open, contents), next), close), e| {
            let last_end = e.span().end;
            let s = state_of(e);
            let next = next.range(s).start;
            let body = match contents {
                Contents::Items(items) => finish_body(s, items, TextRange::new(open.end, next)),
                Contents::Skipped(end) => {
                    let range = TextRange::new(open.end, end.max(open.end));
                    s.b.body(Run::default(), range, Run::default())
                }
                Contents::OneLine(item) => {
                    let items = s.b.items_run(item.into_iter().collect());
                    let range = TextRange::new(open.end, next.max(open.end));
                    s.b.body(items, range, Run::default())
                }
            };
            let empty = s.b.body_items(body).len == 0;
            let close = match close {
                Some(close) => close,
                None if s.depth_reported && empty && last_end > open.end => {
                    TextRange::empty(last_end)
                }
                None => {
                    s.error_r(
                        codes::UNCLOSED_BLOCK,
                        open,
                        "this block's `{` has no matching `}`",
                    );
                    TextRange::empty(last_end)
                }
            };
            Ok(Braced {
                body,
                open,
                close,
                end: close.end.max(last_end),
            })
        })
}

/// `one_line_body = IDENT attribute_rest`, on the line of the `{`; what
/// else is there before the `}` is reported and skipped.
fn one_line_body<'s>(
    expression: PExpr<'s>,
) -> impl Parser<'s, In<'s>, Option<ItemNode>, Ex<'s>> + Clone {
    let attribute = token(K::Ident)
        .try_map_with(|name, e| {
            state_of(e).attr_name = name;
            Ok(name)
        })
        .then(attribute_rest(expression))
        .try_map_with(|(name, a), e| {
            let none = (Run::default(), Run::default());
            let s = state_of(e);
            Ok(Some(
                s.b.attribute(name, a.equals, a.expr.id, a.range, none),
            ))
        });
    let not_attribute = next_token().try_map_with(|next, e| {
        let s = state_of(e);
        let range = next.range(s);
        s.error_r(
            codes::INVALID_ONE_LINE_BLOCK,
            range,
            "a single-line block may only contain one attribute (`name = value`); put nested blocks on their own lines",
        );
        Ok(None)
    });
    let extra = next_token().try_map_with(|next, e| {
        let message = match next.kind {
            Some(K::Comma) => "a single-line block may only contain one attribute",
            Some(K::Newline) => "a single-line block must be closed with `}` on the same line",
            _ => "expected `}` right after the single attribute of a single-line block",
        };
        state_of(e).error_r(codes::INVALID_ONE_LINE_BLOCK, next.span, message);
        Ok(())
    });
    choice((attribute, not_attribute)).then_ignore(choice((
        just(K::CBrace).ignored().rewind(),
        end(),
        extra.ignore_then(skip_to_close()).ignored(),
    )))
}

/// A part of a quoted label that is not plain text.
#[derive(Clone, Copy)]
enum LabelPart {
    Lit(TextRange),
    /// A template sequence: its opening token and its whole range.
    Sequence(TextRange, TextRange),
    Invalid,
}

/// `quoted_label = O_QUOTE { QUOTED_LIT } C_QUOTE`: escapes resolved;
/// template sequences are reported and skipped.
fn quoted_label<'s>() -> impl Parser<'s, In<'s>, LabelNode, Ex<'s>> + Clone {
    // The common label, `"text"`: without escapes, its text as written.
    let plain = token(K::OQuote)
        .then(token(K::QuotedLit))
        .then_ignore(just(K::CQuote))
        .try_map_with(|(open, lit), e| {
            let range = range_of(e.span());
            let s = state_of(e);
            if literal::has_escape_or_sigil(s.slice(lit)) {
                return Ok(label(s, open, &[LabelPart::Lit(lit)], true, range));
            }
            Ok(LabelNode {
                value: Text::Source(lit),
                quoted: true,
                range,
            })
        });
    let part = choice((
        token(K::QuotedLit).map(LabelPart::Lit),
        token(K::TemplateInterp)
            .or(token(K::TemplateControl))
            .then_ignore(skip_to(K::TemplateSeqEnd))
            .map_with(|open, e| LabelPart::Sequence(open, range_of(e.span()))),
        just(K::Invalid).to(LabelPart::Invalid),
    ));
    let general = token(K::OQuote)
        .then(part.repeated().collect::<Vec<_>>())
        .then(just(K::CQuote).or_not())
        .try_map_with(|((open, parts), close), e| {
            let range = range_of(e.span());
            Ok(label(state_of(e), open, &parts, close.is_some(), range))
        });
    plain.or(general)
}

/// A quoted label spanning `range` from its opening quote `open`, its
/// `parts` and whether it was closed: its value decoded, its errors
/// reported (sequences as found, then a missing `"`, then escapes).
fn label(
    s: &mut St<'_>,
    open: TextRange,
    parts: &[LabelPart],
    closed: bool,
    range: TextRange,
) -> LabelNode {
    let mut value = String::new();
    let mut errors = Vec::new();
    for part in parts {
        match *part {
            LabelPart::Lit(lit) => {
                let mut escape_errors = Vec::new();
                value.push_str(&literal::decode_quoted(s.slice(lit), &mut escape_errors));
                for e in escape_errors {
                    errors.push((
                        TextRange::from_usize(
                            lit.start as usize + e.start..lit.start as usize + e.end,
                        ),
                        e.message,
                    ));
                }
            }
            LabelPart::Sequence(open, range) => {
                let sigil = s.slice(open).get(..1).unwrap_or("$");
                s.error(
                    codes::TEMPLATE_IN_LABEL,
                    range,
                    format!("template sequences are not allowed in a block label; write `{sigil}{sigil}{{` for a literal `{sigil}{{`"),
                );
                value.push_str(if sigil == "$" { "${ ... }" } else { "%{ ... }" });
            }
            LabelPart::Invalid => {}
        }
    }
    if !closed {
        s.error_r(
            codes::UNTERMINATED_TEMPLATE,
            open,
            "this string has no closing `\"` on its line",
        );
    }
    for (range, message) in errors {
        s.error(codes::INVALID_ESCAPE, range, message);
    }
    let text = s.text;
    LabelNode {
        value: s.b.text(text, range, &value),
        quoted: true,
        range,
    }
}

#[cfg(test)]
mod tests {
    use pcl_diagnostics::{Diagnostic, FileId, TextRange};

    use crate::codes;

    /// Each diagnostic as code, range and message.
    fn diags(list: &[Diagnostic]) -> Vec<(&'static str, TextRange, &str)> {
        list.iter()
            .map(|d| (d.code.as_str(), d.span.range, d.summary.as_str()))
            .collect()
    }

    fn at(start: u32, end: u32) -> TextRange {
        TextRange::new(start, end)
    }

    #[test]
    fn a_name_without_value_or_block_is_one_error_and_the_next_line_parses() {
        let parse = crate::parse(FileId(0), "a : (b\nc)\nd = 1\n");
        assert_eq!(
            diags(parse.diagnostics()),
            [(
                codes::EXPECTED_ATTRIBUTE_OR_BLOCK.as_str(),
                at(2, 3),
                "expected `=` (attribute) or a block label or `{` after `a`, found `:`"
            )]
        );
        let names: Vec<&str> = parse.body().attributes().map(|a| a.name()).collect();
        assert_eq!(names, ["d"], "{}", parse.dump());
        // At the end of the input the error points at the name, once.
        let parse = crate::parse(FileId(0), "x = 1\nfoo");
        assert_eq!(
            diags(parse.diagnostics()),
            [(
                codes::EXPECTED_ATTRIBUTE_OR_BLOCK.as_str(),
                at(6, 9),
                "expected `=` (attribute) or a block label or `{` after `foo`, found the end of the file"
            )]
        );
    }

    #[test]
    fn a_block_header_without_brace_is_one_error() {
        let parse = crate::parse(FileId(0), "a \"l\" 1 2\nb = 2\n");
        assert_eq!(
            diags(parse.diagnostics()),
            [(
                codes::INVALID_BLOCK_HEADER.as_str(),
                at(6, 7),
                "expected a quoted block label or `{`, found a number"
            )]
        );
        assert_eq!(parse.body().blocks().count(), 1, "{}", parse.dump());
        assert_eq!(parse.body().attributes().count(), 1, "{}", parse.dump());
        // A string with a bad escape, then no `{` (an attribute missing
        // its `=`): both reported, nothing else.
        let parse = crate::parse(FileId(0), "a \"\\$x\"\n");
        let found: Vec<&str> = parse
            .diagnostics()
            .iter()
            .map(|d| d.code.as_str())
            .collect();
        assert_eq!(
            found,
            [
                codes::INVALID_ESCAPE.as_str(),
                codes::EXPECTED_ATTRIBUTE_OR_BLOCK.as_str()
            ],
            "{}",
            parse.dump()
        );
    }

    #[test]
    fn an_attribute_without_its_equals_says_so_with_a_fix() {
        for (text, name, value) in [
            ("name \"w\"\n", "name", "\"w\""),
            ("count 3\n", "count", "3"),
            ("tags [1]\n", "tags", "[1]"),
            ("x \"a\" + \"b\"\n", "x", "\"a\""),
        ] {
            let parse = crate::parse(FileId(0), text);
            let d = parse.diagnostics();
            assert_eq!(d.len(), 1, "{text:?}: {}", parse.dump());
            let d = &d[0];
            assert_eq!(d.code, codes::EXPECTED_ATTRIBUTE_OR_BLOCK, "{text:?}");
            assert_eq!(text.get(d.span.range.to_usize()), Some(name), "{text:?}");
            assert!(
                d.summary
                    .starts_with(&format!("missing `=` after `{name}`")),
                "{}",
                d.summary
            );
            // The fix-it makes it an attribute.
            let fix = &d.fixes()[0];
            let mut fixed = text.to_string();
            fixed.replace_range(fix.span.range.to_usize(), &fix.replacement);
            assert!(fixed.starts_with(&format!("{name} = {value}")), "{fixed:?}");
            assert!(
                !crate::parse(FileId(0), fixed.as_str()).has_errors(),
                "{fixed:?}"
            );
        }
        // A block type that takes one label lacks its `{`; two labels, or
        // a `{` ending the line or opening the next, make a block header.
        for text in [
            "output \"url\"\n",
            "resource r \"t\"\n",
            "a \"l\" 1 2\n",
            "a \"b\"\n{\n}\n",
            "a 1 {}\n",
        ] {
            let parse = crate::parse(FileId(0), text);
            let codes: Vec<&str> = parse
                .diagnostics()
                .iter()
                .map(|d| d.code.as_str())
                .collect();
            assert!(!codes.is_empty(), "{text:?}");
            assert!(
                parse
                    .diagnostics()
                    .iter()
                    .all(|d| !d.summary.contains("missing `=`")),
                "{text:?}: {}",
                parse.dump()
            );
        }
    }

    #[test]
    fn an_unclosed_block_is_reported_at_its_brace() {
        let parse = crate::parse(FileId(0), "a {\n  b = 1\n");
        assert_eq!(
            diags(parse.diagnostics()),
            [(
                codes::UNCLOSED_BLOCK.as_str(),
                at(2, 3),
                "this block's `{` has no matching `}`"
            )]
        );
    }

    #[test]
    fn tokens_after_an_expression_are_one_error() {
        let parse = crate::parse_expr(FileId(0), "1 2 3");
        assert_eq!(
            diags(parse.diagnostics()),
            [(
                codes::EXTRA_AFTER_EXPRESSION.as_str(),
                at(2, 3),
                "expected the end of the expression, found a number"
            )]
        );
    }
}
