//! The grammar's input and error type: what chumsky's combinators see.
//!
//! [`SigInput`] is a chumsky [`Input`] over the full token vector that
//! yields only the significant tokens (those `newlines::significant_tokens`
//! marks in a [`SigSet`], one bit per token): its tokens are
//! `TokenKind`s, so `just(K::Comma)` and `select!` work on them, a
//! significant line comment reads as the line break it contains, its
//! cursor is a token's index in the full vector (so every byte of the
//! input is at hand from a cursor), and its spans are byte ranges from
//! the first consumed token's start to the last consumed token's end.
//!
//! [`SyntaxError`] is the grammar's chumsky error: what was found, where,
//! and what was expected (a set of token kinds and of [`Label`]s, merged
//! with a bitwise or, so failing alternatives cost no allocation). It
//! maps onto the catalogue's codes in [`SyntaxError::diagnostic`].

use std::ops::Range;

use chumsky::error::{Error, LabelError};
use chumsky::input::{Input, ValueInput};
use chumsky::span::SimpleSpan;
use chumsky::util::MaybeRef;
use chumsky::DefaultExpected;
use pcl_diagnostics::{Code, TextRange};

use crate::codes;
use crate::token::{TokenKind as K, Tokens};

/// A set of token indices: one bit per token of the full vector.
#[derive(Clone, Debug, Default)]
pub(crate) struct SigSet {
    words: Vec<u64>,
    len: usize,
}

impl SigSet {
    /// An empty set for `len` tokens.
    #[cfg(test)]
    pub(crate) fn for_tokens(len: usize) -> SigSet {
        SigSet {
            words: vec![0; len / 64 + 1],
            len,
        }
    }

    /// The set whose word `i` holds the indices `64 * i` to `64 * i + 63`
    /// (bit `j` for index `64 * i + j`), for `len` tokens: `len / 64 + 1`
    /// words, as [`SigSet::for_tokens`] makes, with no bit at or past
    /// `len` (the significance pass builds them a word at a time).
    pub(crate) fn from_words(words: Vec<u64>, len: usize) -> SigSet {
        debug_assert_eq!(words.len(), len / 64 + 1);
        SigSet { words, len }
    }

    #[inline(always)]
    pub(crate) fn insert(&mut self, idx: u32) {
        let idx = idx as usize;
        if let Some(word) = self.words.get_mut(idx / 64) {
            *word |= 1u64 << (idx % 64);
        }
    }

    /// How many tokens are in the set.
    pub(crate) fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The first index in the set at or after `from`, else the token
    /// count (the end).
    #[inline(always)]
    pub(crate) fn next_from(&self, from: usize) -> usize {
        let mut word_idx = from / 64;
        let mut word = match self.words.get(word_idx) {
            Some(word) => word & (u64::MAX << (from % 64)),
            None => return self.len,
        };
        loop {
            if word != 0 {
                // Only indices below `len` are ever inserted.
                return word_idx * 64 + word.trailing_zeros() as usize;
            }
            word_idx += 1;
            word = match self.words.get(word_idx) {
                Some(word) => *word,
                None => return self.len,
            };
        }
    }
}

/// A position in a [`SigInput`]: the index (in the full token vector) of
/// the next significant token (the token count at the end), and where the
/// significant token before it ends, so a span or the end of what was
/// consumed is known without a scan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SigCursor {
    pub(crate) idx: usize,
    pub(crate) prev_end: u32,
}

/// The significant tokens of one input, as chumsky reads them.
#[derive(Clone, Copy)]
pub(crate) struct SigInput<'s> {
    pub(crate) tokens: &'s Tokens,
    pub(crate) sigs: &'s SigSet,
}

impl<'s> SigInput<'s> {
    /// The kind the grammar sees for the token at `idx`: a significant
    /// line comment stands for its line break.
    #[inline(always)]
    pub(crate) fn kind(&self, idx: usize) -> Option<K> {
        self.tokens.kind(idx).map(|kind| match kind {
            K::HashComment | K::SlashComment => K::Newline,
            kind => kind,
        })
    }

    /// Where the token at `idx` ends.
    #[inline(always)]
    fn end_of(&self, idx: usize) -> u32 {
        match self.tokens.start(idx + 1) {
            Some(end) => end,
            None => self.tokens.end(),
        }
    }

    #[inline(always)]
    fn advance(&self, cursor: &mut SigCursor) -> Option<K> {
        let kind = self.kind(cursor.idx)?;
        cursor.prev_end = self.end_of(cursor.idx);
        cursor.idx = self.sigs.next_from(cursor.idx + 1);
        Some(kind)
    }

    /// The span a token test at `cursor` reports (that token's, or the
    /// empty span at the end of the input).
    #[inline(always)]
    pub(crate) fn span_at(&self, cursor: usize) -> SimpleSpan<u32> {
        let start = self.start_at(cursor);
        let end = match self.tokens.kind(cursor) {
            Some(_) => self.end_of(cursor).max(start),
            None => start,
        };
        SimpleSpan::from(start..end)
    }

    /// Where the token at `cursor` starts (the input's end past the last).
    pub(crate) fn start_at(&self, cursor: usize) -> u32 {
        match self.tokens.start(cursor) {
            Some(start) => start,
            None => self.tokens.end(),
        }
    }
}

// chumsky's `Input` declares its methods `unsafe fn` (their callers
// promise to pass cursors of this input); these bodies do nothing unsafe:
// every access is checked. The only `allow(unsafe_code)` in the project.
#[allow(unsafe_code)]
impl<'s> Input<'s> for SigInput<'s> {
    type Span = SimpleSpan<u32>;
    type Token = K;
    type MaybeToken = K;
    type Cursor = SigCursor;
    type Cache = Self;

    fn begin(self) -> (SigCursor, Self) {
        let idx = self.sigs.next_from(0);
        (SigCursor { idx, prev_end: 0 }, self)
    }

    #[inline(always)]
    fn cursor_location(cursor: &SigCursor) -> usize {
        cursor.idx
    }

    #[inline(always)]
    unsafe fn next_maybe(this: &mut Self, cursor: &mut SigCursor) -> Option<K> {
        this.advance(cursor)
    }

    #[inline(always)]
    unsafe fn span(this: &mut Self, range: Range<&SigCursor>) -> SimpleSpan<u32> {
        let start = this.start_at(range.start.idx);
        let end = if range.end.idx > range.start.idx {
            range.end.prev_end.max(start)
        } else {
            start
        };
        SimpleSpan::from(start..end)
    }
}

#[allow(unsafe_code)] // See `Input` above.
impl<'s> ValueInput<'s> for SigInput<'s> {
    #[inline(always)]
    unsafe fn next(this: &mut Self, cursor: &mut SigCursor) -> Option<K> {
        this.advance(cursor)
    }
}

/// A named thing a parser expects, for messages ("expected an
/// expression"), given with chumsky's `labelled`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Label {
    Expression,
    AttributeOrBlock,
    Name,
}

impl Label {
    const ALL: [Label; 3] = [Label::Expression, Label::AttributeOrBlock, Label::Name];

    fn describe(self) -> &'static str {
        match self {
            Label::Expression => "an expression",
            Label::AttributeOrBlock => "an attribute or block definition",
            Label::Name => "a name",
        }
    }
}

/// The grammar's chumsky error. `Copy` and allocation-free: alternatives
/// fail often and cheaply; a message is only written when an error
/// becomes a diagnostic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    /// Where it was found (the unexpected token, or the empty range at
    /// the end of the input).
    pub(crate) span: SimpleSpan<u32>,
    pub(crate) found: Option<K>,
    /// Token kinds expected, one bit per `TokenKind` discriminant.
    expected: u64,
    /// Labels expected, one bit per `Label`.
    labels: u8,
    /// Set when the end of the input was an acceptable continuation.
    end_ok: bool,
}

// One bit per kind in `expected`; the error stays 24 bytes (chumsky
// copies it at every failed alternative).
const _: () = assert!(K::ALL.len() <= 64);
const _: () = assert!(std::mem::size_of::<SyntaxError>() <= 24);

impl SyntaxError {
    fn at(span: SimpleSpan<u32>, found: Option<K>) -> Self {
        SyntaxError {
            span,
            found,
            expected: 0,
            labels: 0,
            end_ok: false,
        }
    }

    /// `found` where it was not expected (a keyword test that failed).
    pub(crate) fn unexpected(span: SimpleSpan<u32>, found: K) -> Self {
        SyntaxError::at(span, Some(found))
    }

    /// `found` at `span` where one of the kinds in `expected` (one bit
    /// per kind) was expected: what a `choice` of token tests merges.
    pub(crate) fn expecting(span: SimpleSpan<u32>, found: Option<K>, expected: u64) -> Self {
        let mut error = SyntaxError::at(span, found);
        error.expected = expected;
        error
    }

    /// Every token kind this error says was expected, in declaration
    /// order.
    pub(crate) fn expected_kinds(&self) -> impl Iterator<Item = K> + '_ {
        K::ALL
            .iter()
            .copied()
            .filter(|kind| self.expected & (1u64 << (*kind as u8)) != 0)
    }

    /// The code and message this error maps onto: a missing expression
    /// is `expected-expression`; anything else expected-but-not-found is
    /// reported as the attribute-or-block error at body level, which is
    /// the only place the grammar lets a chumsky error reach the top.
    pub(crate) fn diagnostic(&self) -> (Code, TextRange, String) {
        let mut wanted: Vec<&'static str> = Label::ALL
            .iter()
            .filter(|label| self.labels & (1 << (**label as u8)) != 0)
            .map(|label| label.describe())
            .collect();
        wanted.extend(self.expected_kinds().map(K::describe));
        if self.end_ok {
            wanted.push("the end of the input");
        }
        let found = self.found.map_or("the end of the input", K::describe);
        let code = if self.labels & (1 << (Label::Expression as u8)) != 0 {
            codes::EXPECTED_EXPRESSION
        } else {
            codes::EXPECTED_ATTRIBUTE_OR_BLOCK
        };
        let message = match wanted.as_slice() {
            [] => format!("unexpected {found}"),
            [one] => format!("expected {one}, found {found}"),
            [init @ .., last] => format!("expected {} or {last}, found {found}", init.join(", ")),
        };
        let range = TextRange::new(self.span.start, self.span.end);
        (code, range, message)
    }
}

impl<'s> Error<'s, SigInput<'s>> for SyntaxError {
    fn merge(mut self, other: Self) -> Self {
        self.expected |= other.expected;
        self.labels |= other.labels;
        self.end_ok |= other.end_ok;
        self
    }
}

impl<'s> LabelError<'s, SigInput<'s>, DefaultExpected<'s, K>> for SyntaxError {
    fn expected_found<E: IntoIterator<Item = DefaultExpected<'s, K>>>(
        expected: E,
        found: Option<MaybeRef<'s, K>>,
        span: SimpleSpan<u32>,
    ) -> Self {
        let mut error = SyntaxError::at(span, found.map(|k| *k));
        error.add_expected(expected);
        error
    }

    /// What `merge` with a new error would do, without building one (the
    /// merged error keeps its own span and token).
    #[inline(always)]
    fn merge_expected_found<E: IntoIterator<Item = DefaultExpected<'s, K>>>(
        mut self,
        expected: E,
        _found: Option<MaybeRef<'s, K>>,
        _span: SimpleSpan<u32>,
    ) -> Self {
        self.add_expected(expected);
        self
    }
}

impl SyntaxError {
    #[inline(always)]
    fn add_expected<'s>(&mut self, expected: impl IntoIterator<Item = DefaultExpected<'s, K>>) {
        for item in expected {
            match item {
                DefaultExpected::Token(kind) => self.expected |= 1u64 << (*kind as u8),
                DefaultExpected::EndOfInput => self.end_ok = true,
                _ => {}
            }
        }
    }
}

impl<'s> LabelError<'s, SigInput<'s>, Label> for SyntaxError {
    fn expected_found<E: IntoIterator<Item = Label>>(
        expected: E,
        found: Option<MaybeRef<'s, K>>,
        span: SimpleSpan<u32>,
    ) -> Self {
        let mut error = SyntaxError::at(span, found.map(|k| *k));
        for label in expected {
            error.labels |= 1 << (label as u8);
        }
        error
    }

    #[inline(always)]
    fn merge_expected_found<E: IntoIterator<Item = Label>>(
        mut self,
        expected: E,
        _found: Option<MaybeRef<'s, K>>,
        _span: SimpleSpan<u32>,
    ) -> Self {
        for label in expected {
            self.labels |= 1 << (label as u8);
        }
        self
    }

    fn label_with(&mut self, label: Label) {
        self.expected = 0;
        self.end_ok = false;
        self.labels = 1 << (label as u8);
    }
}

impl Default for SyntaxError {
    /// An error with nothing expected, at the start: what a `custom`
    /// parser that declines returns (the caller's alternatives or
    /// recovery decide what is reported).
    fn default() -> Self {
        SyntaxError::at(SimpleSpan::from(0..0), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sig_set_scans_across_words() {
        let mut set = SigSet::for_tokens(200);
        for idx in [0u32, 5, 63, 64, 130, 199] {
            set.insert(idx);
        }
        assert_eq!(set.count(), 6);
        let mut seen = Vec::new();
        let mut at = set.next_from(0);
        while at < 200 {
            seen.push(at);
            at = set.next_from(at + 1);
        }
        assert_eq!(seen, [0, 5, 63, 64, 130, 199]);
        assert_eq!(set.next_from(131), 199);
        assert_eq!(SigSet::for_tokens(10).next_from(0), 10);
    }

    #[test]
    fn errors_merge_what_they_expected() {
        let span = SimpleSpan::from(3..4);
        let a = <SyntaxError as LabelError<SigInput<'_>, DefaultExpected<'_, K>>>::expected_found(
            [DefaultExpected::Token(MaybeRef::Val(K::Comma))],
            Some(MaybeRef::Val(K::Ident)),
            span,
        );
        let b = <SyntaxError as LabelError<SigInput<'_>, DefaultExpected<'_, K>>>::expected_found(
            [DefaultExpected::Token(MaybeRef::Val(K::CBrack))],
            Some(MaybeRef::Val(K::Ident)),
            span,
        );
        let merged = Error::<SigInput<'_>>::merge(a, b);
        assert_eq!(
            merged.expected_kinds().collect::<Vec<_>>(),
            [K::CBrack, K::Comma]
        );
        let (_, range, message) = merged.diagnostic();
        assert_eq!(range, TextRange::new(3, 4));
        assert!(message.starts_with("expected "), "{message}");
    }
}
