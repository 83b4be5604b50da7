//! Where the lexer's tokens go: the [`Sink`] trait (the public
//! `Vec<Token>` or the parser's compact [`Tokens`]) and the main-mode
//! loop's [`Batch`], which hands tokens to a sink 64 at a time.

use pcl_diagnostics::TextRange;

use crate::token::{Token, TokenKind, Tokens};

/// Where the lexer puts its tokens: the public `Vec<Token>` or the
/// parser's compact [`Tokens`].
pub(super) trait Sink {
    fn with_capacity(capacity: usize) -> Self;
    /// Appends a token; offsets saturate like `TextRange::from_usize`.
    fn push_token(&mut self, kind: TokenKind, start: usize, end: usize);
    /// Appends the tokens of a [`Batch`]: `starts` (as long as `kinds`)
    /// are already clamped, and the last token ends at `end`.
    fn push_batch(&mut self, kinds: &[TokenKind], starts: &[u32], end: u32);
    /// Called once, after the last token (which ends at `end`).
    fn finish(&mut self, end: usize);
}

#[inline(always)]
fn clamp(offset: usize) -> u32 {
    offset.min(u32::MAX as usize) as u32
}

impl Sink for Vec<Token> {
    fn with_capacity(capacity: usize) -> Self {
        Vec::with_capacity(capacity)
    }
    fn push_token(&mut self, kind: TokenKind, start: usize, end: usize) {
        // Built in place (the `TextRange` constructors are not inlined
        // across crates).
        self.push(Token {
            kind,
            range: TextRange {
                start: clamp(start),
                end: clamp(end),
            },
        });
    }
    fn push_batch(&mut self, kinds: &[TokenKind], starts: &[u32], end: u32) {
        // Every token but the last ends where the next starts: three
        // slices zipped, which `extend` copies without a capacity check per
        // token (a chained iterator for the ends would not).
        let (Some((&last_kind, kinds)), Some((&last_start, _))) =
            (kinds.split_last(), starts.split_last())
        else {
            return;
        };
        let ends = starts.get(1..).unwrap_or(&[]);
        self.extend(
            kinds
                .iter()
                .zip(starts)
                .zip(ends)
                .map(|((&kind, &start), &end)| Token {
                    kind,
                    range: TextRange { start, end },
                }),
        );
        self.push(Token {
            kind: last_kind,
            range: TextRange {
                start: last_start,
                end,
            },
        });
    }
    fn finish(&mut self, _end: usize) {}
}

impl Sink for Tokens {
    fn with_capacity(capacity: usize) -> Self {
        Tokens::with_capacity(capacity)
    }
    fn push_token(&mut self, kind: TokenKind, start: usize, _end: usize) {
        // A token ends where the next starts: only the last end is kept.
        self.push(kind, clamp(start));
    }
    fn push_batch(&mut self, kinds: &[TokenKind], starts: &[u32], _end: u32) {
        self.extend(kinds, starts);
    }
    fn finish(&mut self, end: usize) {
        self.set_end(clamp(end));
    }
}

/// How many tokens the main-mode loop gathers before handing them over.
pub(super) const BATCH: usize = 64;

/// Main-mode tokens gathered in two fixed arrays and handed to the sink
/// [`BATCH`] at a time: one copy per batch instead of two growing-vector
/// pushes (each reloading the vector's length and capacity) per token.
pub(super) struct Batch {
    kinds: [TokenKind; BATCH],
    starts: [u32; BATCH],
}

impl Batch {
    pub(super) fn new() -> Batch {
        Batch {
            kinds: [TokenKind::Invalid; BATCH],
            starts: [0; BATCH],
        }
    }

    /// Puts a token in slot `len` (the count so far, kept in a register
    /// by the caller) and returns the new count.
    #[inline(always)]
    pub(super) fn put(&mut self, len: usize, kind: TokenKind, start: usize) -> usize {
        match (self.kinds.get_mut(len), self.starts.get_mut(len)) {
            (Some(k), Some(s)) => {
                *k = kind;
                *s = clamp(start);
                len + 1
            }
            _ => len,
        }
    }

    /// Hands the first `len` tokens (the last ending at `end`) to `sink`.
    pub(super) fn flush<S: Sink>(&mut self, len: usize, sink: &mut S, end: usize) {
        let len = len.min(BATCH);
        if let (Some(kinds), Some(starts)) = (self.kinds.get(..len), self.starts.get(..len)) {
            sink.push_batch(kinds, starts, clamp(end));
        }
    }
}
