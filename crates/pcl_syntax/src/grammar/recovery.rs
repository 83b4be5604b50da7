//! Error recovery and the nesting limit. No production of
//! `grammar/pcl.ebnf` lives here.
//!
//! Recovery is chumsky's: a production that cannot go on fails, and the
//! caller's `recover_with(via_parser(…))` reports the precise diagnostic
//! and skips what is left of the broken construct with one of the
//! skipping parsers below (`skip_line`: the rest of a body item;
//! `skip_to_close`: up to the closer of the construct; `skip_to`: that,
//! then the closer; `skip_balanced`: one balanced group), so one mistake
//! gives one diagnostic and parsing resumes at the next body item. A
//! recovery parser marks the error it answered for ([`handled`]), so the
//! error chumsky emits for it is not reported a second time.
//!
//! Depth: every nesting production (`paren_expr`, `function_call`,
//! `tuple_or_for`, `object_or_for`, `template_expr`, a block's body) runs
//! under [`depth_limited`] (or its expression form [`nested`]), which
//! counts levels in the parser state and, at [`MAX_NESTING_DEPTH`],
//! reports `nesting-too-deep` once and runs the given fallback (a skip
//! without recursion) instead.
//!
//! [`skip`] is the one skipping parser of the grammar (every area's
//! recovery goes through it, in one of its modes) and one of the three
//! `custom` parsers (the others are `dispatch.rs`'s `dispatch` and
//! `optional`).

use chumsky::prelude::*;
use pcl_diagnostics::TextRange;

use super::input::SyntaxError;
use super::{
    bump, decline, decline_at, is_close, is_open, next_token, peek, peek_kind, peek_range,
    range_of, st, state_of, Ex, Expr, In, Inp, St,
};
use crate::codes;
use crate::token::TokenKind as K;
use crate::MAX_NESTING_DEPTH;

/// How a skipping parser decides where to stop (see [`skip`]).
#[derive(Clone, Copy)]
enum Skip {
    /// [`recover_line`].
    Line,
    /// [`skip_to_closer`].
    ToClose,
    /// [`skip_to_closer`] without the item-start test.
    Balanced,
    /// [`skip_nested`] from depth 0.
    Group,
    /// [`recover_line_in_expr`].
    LineInExpr,
    /// [`skip_nested`] from depth 1.
    RestOfGroup,
}

/// Skips tokens the way `how` says; its output is the end of the last
/// significant token before the cursor afterwards (where a construct cut
/// short ends).
///
/// `custom` because neither stop is a combinator: a line break ends the
/// skip only where the next line starts a new body item, a column test on
/// the source (`item_starts_after`), and brackets are balanced by count,
/// any closer closing any opener; chumsky's `nested_delimiters` needs
/// matching pairs and recurses once per level, without a limit.
fn skip<'s>(how: Skip) -> impl Parser<'s, In<'s>, u32, Ex<'s>> + Clone {
    custom(move |inp: &mut Inp<'s, '_>| {
        match how {
            Skip::Line => recover_line(inp),
            Skip::ToClose => skip_to_closer(inp),
            Skip::Balanced => {
                let saved = st(inp).item_start.take();
                skip_to_closer(inp);
                st(inp).item_start = saved;
            }
            Skip::Group => skip_nested(inp, 0),
            Skip::LineInExpr => recover_line_in_expr(inp),
            Skip::RestOfGroup => skip_nested(inp, 1),
        }
        Ok::<_, SyntaxError>(st(inp).last_end)
    })
}

/// The rest of a broken body item, up to its line break (or a `}` that
/// closes the enclosing block, or the end).
pub(super) fn skip_line<'s>() -> impl Parser<'s, In<'s>, u32, Ex<'s>> + Clone {
    skip(Skip::Line)
}

/// Balanced groups up to the first unmatched closer (left), a line break
/// where a new body item starts, or the end.
pub(super) fn skip_to_close<'s>() -> impl Parser<'s, In<'s>, u32, Ex<'s>> + Clone {
    skip(Skip::ToClose)
}

/// The balanced group at the next token.
pub(super) fn skip_one_group<'s>() -> impl Parser<'s, In<'s>, u32, Ex<'s>> + Clone {
    skip(Skip::Group)
}

/// What is left of an expression cut off at the nesting limit: groups up
/// to a line break, a closer or a comma.
pub(super) fn skip_rest_of_expr<'s>() -> impl Parser<'s, In<'s>, u32, Ex<'s>> + Clone {
    skip(Skip::LineInExpr)
}

/// The rest of a bracketed group whose opener was consumed, its closer
/// included.
pub(super) fn skip_rest_of_group<'s>() -> impl Parser<'s, In<'s>, u32, Ex<'s>> + Clone {
    skip(Skip::RestOfGroup)
}

/// [`skip_to_close`], then `close` if it is next: whether it was.
pub(super) fn skip_to<'s>(close: K) -> impl Parser<'s, In<'s>, bool, Ex<'s>> + Clone {
    skip_to_close().ignore_then(just(close).or_not().map(|c| c.is_some()))
}

/// Marks the error at `at` (the start of the token a production failed
/// at) as answered by a recovery parser: [`super::report_errors`] does not
/// report it again.
pub(super) fn handled(s: &mut St<'_>, at: u32) {
    s.handled.push(at);
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

/// Skips, without recursion, balanced groups until `depth` open groups
/// are closed: the group at the next token (`depth` 0; a line break there
/// ends the skip at once), or the rest of a group whose opener was
/// consumed (`depth` 1), its closer included.
fn skip_nested(inp: &mut Inp<'_, '_>, mut depth: usize) {
    while let Some(sig) = peek(inp) {
        if sig.kind == K::Newline && depth == 0 {
            break;
        }
        bump(inp);
        if is_group_open(sig.kind) {
            depth += 1;
        } else if is_group_close(sig.kind) {
            depth = depth.saturating_sub(1);
        }
        if depth == 0 {
            break;
        }
    }
}

/// Opens a group that [`skip_nested`] skips whole (strings and heredocs
/// too).
fn is_group_open(kind: K) -> bool {
    matches!(
        kind,
        K::OParen
            | K::OBrack
            | K::OBrace
            | K::TemplateInterp
            | K::TemplateControl
            | K::OQuote
            | K::OHeredoc
    )
}

/// Closes such a group.
fn is_group_close(kind: K) -> bool {
    matches!(
        kind,
        K::CParen | K::CBrack | K::CBrace | K::TemplateSeqEnd | K::CQuote | K::CHeredoc
    )
}

/// Skips, without recursion, the balanced group at the next token: an
/// `Error` node over it.
pub(super) fn skip_group(inp: &mut Inp<'_, '_>) -> Expr {
    let start = peek_range(inp).start;
    skip_nested(inp, 0);
    let s = st(inp);
    let range = s.range_from(start);
    s.error_node(range)
}

/// At the limit: `nesting-too-deep` (once per input, at `range`), and
/// what follows is recovery.
pub(super) fn at_limit(s: &mut St<'_>, range: TextRange) {
    if !s.depth_reported {
        s.depth_reported = true;
        s.error(
            codes::NESTING_TOO_DEEP,
            range,
            format!("nesting is deeper than the limit of {MAX_NESTING_DEPTH} levels"),
        );
    }
    s.recovering = true;
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

/// Runs `p` one nesting level deeper; at the limit, reports (once) and
/// runs `fallback` instead. A level is left when `p` returns, whether it
/// succeeded or failed.
pub(super) fn depth_limited<'s, O, P, F>(
    p: P,
    fallback: F,
) -> impl Parser<'s, In<'s>, O, Ex<'s>> + Clone
where
    O: 's,
    P: Parser<'s, In<'s>, O, Ex<'s>> + Clone,
    F: Parser<'s, In<'s>, O, Ex<'s>> + Clone,
{
    // Fails at the limit (the second alternative reports it).
    let descend = empty().try_map_with(|(), e| {
        let s = state_of(e);
        if s.depth >= MAX_NESTING_DEPTH {
            return Err(decline_at(range_of(e.span()), None));
        }
        s.depth += 1;
        Ok(())
    });
    let ascend = || {
        empty().try_map_with(|(), e| {
            let s = state_of(e);
            s.depth = s.depth.saturating_sub(1);
            Ok(())
        })
    };
    // `p` failed: leave its level and fail as it did.
    let ascend_failing = ascend().try_map(|(), span| Err::<O, _>(decline_at(range_of(span), None)));
    let limit = next_token().try_map_with(|next, e| {
        let s = state_of(e);
        if s.depth < MAX_NESTING_DEPTH {
            return Err(decline(next));
        }
        at_limit(s, next.range(s));
        Ok(())
    });
    choice((
        descend
            .ignore_then(p.or(ascend_failing))
            .try_map_with(|out, e| {
                let s = state_of(e);
                s.depth = s.depth.saturating_sub(1);
                Ok(out)
            }),
        limit.ignore_then(fallback),
    ))
}

/// `depth_limited` for an expression: at the limit, the balanced group
/// at the next token is skipped and is an `Error` node.
pub(super) fn nested<'s, P>(p: P) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone
where
    P: Parser<'s, In<'s>, Expr, Ex<'s>> + Clone,
{
    let skipped = skip(Skip::Group).try_map_with(|_, e| {
        let range = range_of(e.span());
        Ok(state_of(e).error_node(range))
    });
    depth_limited(p, skipped)
}

/// Balanced groups up to the first unmatched closer, without the
/// item-start test; the end of the last token skipped (see [`skip`]).
pub(super) fn skip_balanced<'s>() -> impl Parser<'s, In<'s>, u32, Ex<'s>> + Clone {
    skip(Skip::Balanced)
}

/// Skips balanced groups up to the first unmatched closer (left
/// unconsumed), a line break where a new body item starts, or the end.
pub(super) fn skip_to_closer(inp: &mut Inp<'_, '_>) {
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
