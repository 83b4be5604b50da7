//! Hand-made error recovery and the nesting limit: skipping to a closer
//! (`recover_to`), to the end of a body item (`recover_line`), over a
//! balanced group past the depth limit (`skip_group`), and the `nested`
//! wrapper every nesting production of `grammar/pcl.ebnf` (`paren_expr`,
//! `function_call`, `tuple_or_for`, `object_or_for`, `template_expr`)
//! runs under. No production of the EBNF lives here.

use chumsky::prelude::*;

use super::{bump, is_close, is_open, peek, peek_kind, peek_range, st, Ex, Expr, In, Inp};
use crate::codes;
use crate::token::TokenKind as K;
use crate::MAX_NESTING_DEPTH;

/// Skips to the closer of the construct whose opener was consumed; see
/// the module docs. Returns whether `close` was consumed.
pub(super) fn recover_to(inp: &mut Inp<'_, '_>, close: K) -> bool {
    skip_to_closer(inp);
    if peek_kind(inp) == Some(close) {
        bump(inp);
        return true;
    }
    false
}

/// Skips the rest of a broken body item, up to its line break.
pub(super) fn recover_line(inp: &mut Inp<'_, '_>) {
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
pub(super) fn skip_group(inp: &mut Inp<'_, '_>) -> Expr {
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
    let s = st(inp);
    let range = s.range_from(start);
    s.error_node(range)
}

/// Enters one nesting level; false (after reporting once) at the limit.
pub(super) fn enter(inp: &mut Inp<'_, '_>) -> bool {
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

pub(super) fn leave(inp: &mut Inp<'_, '_>) {
    let s = st(inp);
    s.depth = s.depth.saturating_sub(1);
}

/// Skips what is left of an expression cut off at the nesting limit.
pub(super) fn recover_line_in_expr(inp: &mut Inp<'_, '_>) {
    while let Some(kind) = peek_kind(inp) {
        match kind {
            K::Newline | K::CParen | K::CBrack | K::CBrace | K::TemplateSeqEnd | K::Comma => break,
            _ => {
                skip_group(inp);
            }
        }
    }
}

/// Runs `p` one nesting level deeper; at the limit, reports and skips the
/// balanced group instead.
pub(super) fn nested<'s, P>(p: P) -> impl Parser<'s, In<'s>, Expr, Ex<'s>> + Clone
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
