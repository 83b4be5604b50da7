//! Attaching comments to body items.
//!
//! The rule (the intended one from Pulumi's trivia layer, without its
//! quirks):
//!
//! * **Leading comments** of an attribute or block are the comments on the
//!   lines directly above it, plus block comments before it on its own
//!   line. The run is collected upwards from the item and stops at a blank
//!   line (a line with nothing but whitespace), at any non-comment token,
//!   and at a comment that shares its line with earlier code (such a
//!   comment is the trailing comment of that code).
//! * **Trailing comments** are the comments after the item's last token on
//!   the same line: any block comments and at most one final `#`/`//`
//!   comment.
//! * Every other comment in a body (after the last item, separated from
//!   the next item by a blank line, or right after a block's `{`) is a
//!   **dangling comment** of that body.
//!
//! Comment text is kept raw (delimiters included, line break excluded).

use pcl_diagnostics::TextRange;

use crate::token::{Token, TokenKind, Tokens};
use crate::tree::builder::slice;
use crate::tree::{CommentKind, CommentNode, Comments, ItemNode};

fn make_comment(text: &str, token: Token) -> Option<CommentNode> {
    let kind = match token.kind {
        TokenKind::HashComment => CommentKind::Hash,
        TokenKind::SlashComment => CommentKind::DoubleSlash,
        TokenKind::BlockComment => CommentKind::Block,
        _ => return None,
    };
    let raw = text.get(token.range.to_usize()).unwrap_or("");
    let text = raw.strip_suffix('\n').unwrap_or(raw);
    let text = if kind == CommentKind::Block {
        text
    } else {
        text.strip_suffix('\r').unwrap_or(text)
    };
    let range = TextRange::new(token.range.start, token.range.start + text.len() as u32);
    Some(CommentNode { kind, range })
}

/// Does the token at `idx` share its line with an earlier non-trivia token?
fn follows_code_on_line(tokens: &Tokens, idx: usize) -> bool {
    let mut i = idx;
    while i > 0 {
        i -= 1;
        match tokens.kind(i) {
            Some(TokenKind::Whitespace | TokenKind::BlockComment | TokenKind::Bom) => continue,
            Some(TokenKind::Newline | TokenKind::HashComment | TokenKind::SlashComment) | None => {
                return false
            }
            Some(_) => return true,
        }
    }
    false
}

/// The leading and trailing comments of an item whose first and last
/// non-trivia tokens are at `first` and `last`.
pub(crate) fn attach(
    text: &str,
    tokens: &Tokens,
    first: usize,
    last: usize,
) -> (Vec<CommentNode>, Vec<CommentNode>) {
    // Most items have no comment next to them: that is decided from the
    // kinds alone, before the scans below look at ranges and text.
    if !comment_near(tokens.kinds(), first, last) {
        return (Vec::new(), Vec::new());
    }
    let mut leading = Vec::new();
    let mut newlines = 0;
    // Whether the line of the comment being looked at has code before it.
    // Every comment on one line gets the same answer (only whitespace and
    // block comments can separate them), so it is computed once per line:
    // a run of block comments on one line costs linear time, not
    // quadratic. Reset when the scan crosses into an earlier line (a line
    // break, or a line comment, which ends its line).
    let mut line_has_code: Option<bool> = None;
    let mut idx = first;
    while idx > 0 {
        idx -= 1;
        let Some(token) = tokens.get(idx) else {
            break;
        };
        match token.kind {
            TokenKind::Whitespace | TokenKind::Bom => {}
            TokenKind::Newline => {
                line_has_code = None;
                newlines += 1;
                if newlines >= 2 {
                    break;
                }
            }
            TokenKind::HashComment | TokenKind::SlashComment | TokenKind::BlockComment => {
                let ends_line = token.kind != TokenKind::BlockComment;
                // A line comment ends its own line: any Newline after it
                // means a blank line.
                if ends_line && newlines >= 1 {
                    break;
                }
                if ends_line {
                    line_has_code = None;
                }
                if *line_has_code.get_or_insert_with(|| follows_code_on_line(tokens, idx)) {
                    break;
                }
                if let Some(comment) = make_comment(text, token) {
                    leading.push(comment);
                }
                newlines = 0;
            }
            _ => break,
        }
    }
    leading.reverse();

    let mut trailing = Vec::new();
    let mut idx = last + 1;
    while let Some(token) = tokens.get(idx) {
        match token.kind {
            TokenKind::Whitespace => {}
            TokenKind::BlockComment => {
                // A block comment that continues onto later lines is not a
                // same-line trailer.
                if text
                    .get(token.range.to_usize())
                    .is_some_and(|t| t.contains('\n'))
                {
                    break;
                }
                trailing.extend(make_comment(text, token));
            }
            TokenKind::HashComment | TokenKind::SlashComment => {
                trailing.extend(make_comment(text, token));
                break;
            }
            _ => break,
        }
        idx += 1;
    }
    (leading, trailing)
}

/// Whether [`attach`] can find a comment for the item at `first..=last`:
/// a comment before `first` with only whitespace and at most one line
/// break between (the leading scan stops at a second line break or any
/// other token), or one after `last` with only whitespace between (the
/// trailing scan stops at any other token).
fn comment_near(kinds: &[TokenKind], first: usize, last: usize) -> bool {
    let before = kinds.get(..first).unwrap_or(&[]);
    let mut newlines = 0;
    for kind in before.iter().rev() {
        match kind {
            TokenKind::Whitespace | TokenKind::Bom => {}
            TokenKind::Newline => {
                newlines += 1;
                if newlines >= 2 {
                    break;
                }
            }
            kind => {
                if kind.is_comment() {
                    return true;
                }
                break;
            }
        }
    }
    let after = kinds.get(last.saturating_add(1)..).unwrap_or(&[]);
    after
        .iter()
        .find(|kind| **kind != TokenKind::Whitespace)
        .is_some_and(|kind| kind.is_comment())
}

/// Comments in `range` (a body) that are outside every item and not
/// attached to one.
/// `comments`: the indices of every comment token, in order.
pub(crate) fn dangling(
    text: &str,
    tokens: &Tokens,
    comments: &[u32],
    range: TextRange,
    items: &[ItemNode],
    attached_comments: &Comments,
) -> Vec<CommentNode> {
    let start_of = |idx: &u32| tokens.start(*idx as usize).unwrap_or(u32::MAX);
    let lo = comments.partition_point(|idx| start_of(idx) < range.start);
    let hi = comments.partition_point(|idx| start_of(idx) < range.end);
    let inside = comments.get(lo..hi).unwrap_or(&[]);
    let mut out = Vec::new();
    if inside.is_empty() {
        return out;
    }
    // The start offsets of the attached comments, sorted for binary search
    // (they come in order already, so the sort is a linear check).
    let mut attached: Vec<u32> = Vec::new();
    for item in items {
        let of = |run| {
            slice(&attached_comments.nodes, run)
                .iter()
                .map(|c| c.range.start)
        };
        attached.extend(of(item.leading(attached_comments)));
        attached.extend(of(item.trailing(attached_comments)));
    }
    attached.sort_unstable();
    // The gaps are the stretches before, between and after the items:
    // gap i runs from the end of item i - 1 (at least the previous gap's
    // start) to the start of item i; the last one to the end of `range`.
    // They are disjoint and in order, like the comments.
    let mut next_item = 0;
    let gap_end = |next_item: usize| items.get(next_item).map_or(range.end, |i| i.range.start);
    let mut gap_start = range.start;
    let mut end = gap_end(next_item);
    for idx in inside {
        let Some(token) = tokens.get(*idx as usize) else {
            continue;
        };
        let start = token.range.start;
        while start >= end && next_item < items.len() {
            if let Some(item) = items.get(next_item) {
                gap_start = item.range.end.max(gap_start);
            }
            next_item += 1;
            end = gap_end(next_item);
        }
        if start >= gap_start && start < end && attached.binary_search(&start).is_err() {
            out.extend(make_comment(text, token));
        }
    }
    out
}
