//! The grammar's input and error type: what chumsky's combinators see.
//!
//! [`SigInput`] is a chumsky [`Input`] over the full token vector that
//! yields only the significant tokens (those `newlines::significant_tokens`
//! marks in a [`SigSet`], one byte per token): its tokens are
//! `TokenKind`s, so `just(K::Comma)` and `select!` work on them, a
//! significant line comment reads as the line break it contains, its
//! cursor is a token's index in the full vector (so every byte of the
//! input is at hand from a cursor), its spans are byte ranges from
//! the first consumed token's start to the last consumed token's end, and
//! its slices (`e.slice()` in a closure) are the token indices from the
//! first consumed token to the next significant one.
//!
//! [`SyntaxError`] is the grammar's chumsky error: what was found, where,
//! and what was expected (a set of token kinds and of [`Label`]s, merged
//! with a bitwise or, so failing alternatives cost no allocation). It
//! maps onto the catalogue's codes in [`SyntaxError::diagnostic`].

use std::ops::Range;

use chumsky::error::{Error, LabelError};
use chumsky::input::{ExactSizeInput, Input, SliceInput, ValueInput};
use chumsky::span::SimpleSpan;
use chumsky::util::MaybeRef;
use chumsky::DefaultExpected;
use pcl_diagnostics::{Code, TextRange};

use crate::codes;
use crate::token::{TokenKind as K, Tokens};

/// The kinds the grammar sees, one per token of the full vector: `None`
/// for a token it does not see (trivia, an ignored line break), else the
/// kind it reads (a significant line comment reads as `Newline`).
///
/// One byte per token (`Option<TokenKind>` uses the enum's spare values):
/// the next significant token is the next `Some`, found by a byte scan
/// (usually one or two steps), and its kind is the byte itself. A set of
/// one bit per token (an eighth of the memory) made a parse of the 1 MB
/// generated file 6.2 M instructions dearer (112.8 M against 106.5 M): a
/// word load, a shift and a bit scan for every token read, and a separate
/// load and mapping for its kind.
#[derive(Clone, Debug, Default)]
pub(crate) struct SigSet {
    kinds: Vec<Option<K>>,
    /// How many are `Some`.
    count: usize,
}

impl SigSet {
    /// From the kinds the significance pass decided (`count` of them
    /// `Some`).
    pub(crate) fn from_kinds(kinds: Vec<Option<K>>, count: usize) -> SigSet {
        debug_assert_eq!(kinds.iter().filter(|k| k.is_some()).count(), count);
        SigSet { kinds, count }
    }

    /// Makes the token at `idx` significant, as `kind`.
    pub(crate) fn insert(&mut self, idx: u32, kind: K) {
        if let Some(slot) = self.kinds.get_mut(idx as usize) {
            if slot.replace(kind).is_none() {
                self.count += 1;
            }
        }
    }

    /// How many tokens are significant.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// The kinds, one per token.
    #[cfg(test)]
    pub(crate) fn kinds(&self) -> &[Option<K>] {
        &self.kinds
    }
}

/// A position in a [`SigInput`]: the index (in the full token vector) of
/// the next significant token (the token count at the end), and where the
/// significant token before it ends, so a span or the end of what was
/// consumed is known without a scan.
///
/// Eight bytes, both `u32`: chumsky copies the cursor at every checkpoint,
/// rewind, span and error, and a cursor that fits one register made a
/// parse of the 1 MB generated file 3.4 M instructions cheaper than a
/// `usize` index beside the `u32` (16 bytes). Token indices fit: inputs
/// past `u32::MAX` bytes are rejected (see `new_state`), and have fewer
/// tokens than bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SigCursor {
    pub(crate) idx: u32,
    pub(crate) prev_end: u32,
}

/// The significant tokens of one input, as chumsky reads them: the token
/// vector's kinds and starts and the significance set's words, held as
/// slices (one load to an element, not two).
#[derive(Clone, Copy)]
pub(crate) struct SigInput<'s> {
    kinds: &'s [Option<K>],
    starts: &'s [u32],
    /// The end of the last token.
    end: u32,
}

impl<'s> SigInput<'s> {
    pub(crate) fn new(tokens: &'s Tokens, sigs: &'s SigSet) -> SigInput<'s> {
        SigInput {
            kinds: &sigs.kinds,
            starts: tokens.starts(),
            end: tokens.end(),
        }
    }

    /// The kind the grammar sees for the significant token at `idx` (a
    /// significant line comment stands for its line break); `None` at the
    /// end.
    #[inline(always)]
    pub(crate) fn kind(&self, idx: usize) -> Option<K> {
        self.kinds.get(idx).copied().flatten()
    }

    /// The index of the first significant token at or after `from` (the
    /// token count at the end).
    #[inline(always)]
    pub(crate) fn next_from(&self, from: usize) -> usize {
        let mut idx = from;
        while let Some(None) = self.kinds.get(idx) {
            idx += 1;
        }
        idx.min(self.kinds.len())
    }

    /// Where the token at `idx` ends.
    #[inline(always)]
    fn end_of(&self, idx: usize) -> u32 {
        match self.starts.get(idx + 1) {
            Some(end) => *end,
            None => self.end,
        }
    }

    #[inline(always)]
    fn advance(&self, cursor: &mut SigCursor) -> Option<K> {
        let idx = cursor.idx as usize;
        let kind = self.kind(idx)?;
        cursor.prev_end = self.end_of(idx);
        cursor.idx = self.next_from(idx + 1) as u32;
        Some(kind)
    }

    /// The span a token test at `cursor` reports (that token's, or the
    /// empty span at the end of the input).
    #[inline(always)]
    pub(crate) fn span_at(&self, cursor: usize) -> SimpleSpan<u32> {
        let start = self.start_at(cursor);
        let end = match self.kinds.get(cursor) {
            Some(_) => self.end_of(cursor).max(start),
            None => start,
        };
        SimpleSpan::from(start..end)
    }

    /// Where the token at `cursor` starts (the input's end past the last).
    pub(crate) fn start_at(&self, cursor: usize) -> u32 {
        match self.starts.get(cursor) {
            Some(start) => *start,
            None => self.end,
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
        let idx = self.next_from(0) as u32;
        (SigCursor { idx, prev_end: 0 }, self)
    }

    #[inline(always)]
    fn cursor_location(cursor: &SigCursor) -> usize {
        cursor.idx as usize
    }

    #[inline(always)]
    unsafe fn next_maybe(this: &mut Self, cursor: &mut SigCursor) -> Option<K> {
        this.advance(cursor)
    }

    #[inline(always)]
    unsafe fn span(this: &mut Self, range: Range<&SigCursor>) -> SimpleSpan<u32> {
        let start = this.start_at(range.start.idx as usize);
        let end = if range.end.idx > range.start.idx {
            range.end.prev_end.max(start)
        } else {
            start
        };
        SimpleSpan::from(start..end)
    }
}

#[allow(unsafe_code)] // See `Input` above.
impl<'s> ExactSizeInput<'s> for SigInput<'s> {
    #[inline(always)]
    unsafe fn span_from(
        this: &mut Self,
        range: std::ops::RangeFrom<&SigCursor>,
    ) -> SimpleSpan<u32> {
        let start = this.start_at(range.start.idx as usize);
        SimpleSpan::from(start..this.end.max(start))
    }
}

/// A "slice" of the input is the range of token indices (in the full
/// vector) a parser consumed: from its first significant token to the
/// next significant token after its last (`e.slice()` in a closure). The
/// body item reads its first and last tokens from it for comment
/// attachment, with no parser of its own and no search by offset.
#[allow(unsafe_code)] // See `Input` above.
impl<'s> SliceInput<'s> for SigInput<'s> {
    type Slice = Range<u32>;

    fn full_slice(this: &mut Self) -> Range<u32> {
        0..this.kinds.len() as u32
    }

    #[inline(always)]
    unsafe fn slice(_: &mut Self, range: Range<&SigCursor>) -> Range<u32> {
        range.start.idx..range.end.idx
    }

    #[inline(always)]
    unsafe fn slice_from(this: &mut Self, from: std::ops::RangeFrom<&SigCursor>) -> Range<u32> {
        from.start.idx..this.kinds.len() as u32
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
    /// The rest in one word: the token kinds expected (one bit per
    /// `TokenKind` discriminant, below [`LABELS`]), the labels expected
    /// (one bit per `Label`), whether the end of the input was an
    /// acceptable continuation ([`END_OK`]), and what was found (above
    /// [`FOUND`]: 0 for the end of the input, else the kind plus one).
    bits: u64,
}

/// Where the label bits start in [`SyntaxError::bits`].
const LABELS: u32 = 54;
const END_OK: u64 = 1 << 57;
/// Where the found kind starts in [`SyntaxError::bits`].
const FOUND: u32 = 58;
const EXPECTED_MASK: u64 = (1 << LABELS) - 1;
const LABEL_MASK: u64 = 0b111 << LABELS;

// Every kind has its expected bit below the labels and fits the six bits
// of the found kind; the error is 16 bytes (chumsky copies it, with a
// cursor, at every failed alternative: at 24 bytes a parse of the 1 MB
// generated file took 4.5 M instructions more).
const _: () = assert!(K::ALL.len() <= LABELS as usize);
const _: () = assert!(Label::ALL.len() <= 3);
const _: () = assert!(std::mem::size_of::<SyntaxError>() <= 16);

impl SyntaxError {
    pub(crate) fn at(span: SimpleSpan<u32>, found: Option<K>) -> Self {
        let found = found.map_or(0, |kind| kind as u64 + 1);
        SyntaxError {
            span,
            bits: found << FOUND,
        }
    }

    /// What was found (`None`: the end of the input).
    pub(crate) fn found(&self) -> Option<K> {
        let found = (self.bits >> FOUND) as usize;
        found
            .checked_sub(1)
            .and_then(|idx| K::ALL.get(idx).copied())
    }

    fn expected(&self) -> u64 {
        self.bits & EXPECTED_MASK
    }

    fn labels(&self) -> u64 {
        (self.bits & LABEL_MASK) >> LABELS
    }

    fn add_label(&mut self, label: Label) {
        self.bits |= 1 << (LABELS + label as u32);
    }

    /// `found` where it was not expected (a keyword test that failed).
    pub(crate) fn unexpected(span: SimpleSpan<u32>, found: K) -> Self {
        SyntaxError::at(span, Some(found))
    }

    /// `found` at `span` where one of the kinds in `expected` (one bit
    /// per kind) was expected: what a `choice` of token tests merges.
    pub(crate) fn expecting(span: SimpleSpan<u32>, found: Option<K>, expected: u64) -> Self {
        let mut error = SyntaxError::at(span, found);
        error.bits |= expected & EXPECTED_MASK;
        error
    }

    /// Every token kind this error says was expected, in declaration
    /// order.
    pub(crate) fn expected_kinds(&self) -> impl Iterator<Item = K> + '_ {
        K::ALL
            .iter()
            .copied()
            .filter(|kind| self.expected() & (1u64 << (*kind as u8)) != 0)
    }

    /// The code and message this error maps onto: a missing expression
    /// is `expected-expression`; anything else expected-but-not-found is
    /// reported as the attribute-or-block error at body level, which is
    /// the only place the grammar lets a chumsky error reach the top.
    pub(crate) fn diagnostic(&self) -> (Code, TextRange, String) {
        let mut wanted: Vec<&'static str> = Label::ALL
            .iter()
            .filter(|label| self.labels() & (1 << (**label as u8)) != 0)
            .map(|label| label.describe())
            .collect();
        wanted.extend(self.expected_kinds().map(K::describe));
        if self.bits & END_OK != 0 {
            wanted.push("the end of the input");
        }
        let found = self.found().map_or("the end of the input", K::describe);
        let code = if self.labels() & (1 << (Label::Expression as u8)) != 0 {
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
        self.bits |= other.bits & (EXPECTED_MASK | LABEL_MASK | END_OK);
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
                DefaultExpected::Token(kind) => self.bits |= 1u64 << (*kind as u8),
                DefaultExpected::EndOfInput => self.bits |= END_OK,
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
            error.add_label(label);
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
            self.add_label(label);
        }
        self
    }

    fn label_with(&mut self, label: Label) {
        self.bits &= !(EXPECTED_MASK | LABEL_MASK | END_OK);
        self.add_label(label);
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
    fn the_input_skips_what_the_grammar_does_not_see() {
        // Tokens 0..200, of which these are significant.
        let kept = [0u32, 5, 63, 64, 130, 199];
        let mut set = SigSet::from_kinds(vec![None; 200], 0);
        for idx in kept {
            set.insert(idx, K::Comma);
        }
        set.insert(5, K::Comma);
        assert_eq!(set.count(), kept.len());
        let tokens = crate::lexer::lex_compact(&",".repeat(200));
        let input = SigInput {
            kinds: set.kinds(),
            starts: tokens.starts(),
            end: tokens.end(),
        };
        let mut seen = Vec::new();
        let mut at = input.next_from(0);
        while at < 200 {
            assert_eq!(input.kind(at), Some(K::Comma));
            seen.push(at as u32);
            at = input.next_from(at + 1);
        }
        assert_eq!(seen, kept);
        assert_eq!(input.next_from(131), 199);
        assert_eq!(input.next_from(200), 200);
        assert_eq!(input.next_from(500), 200);
        assert_eq!(input.kind(200), None);
        let empty = SigSet::from_kinds(vec![None; 10], 0);
        let input = SigInput {
            kinds: empty.kinds(),
            ..input
        };
        assert_eq!(input.next_from(0), 10);
    }

    #[test]
    fn the_packed_error_keeps_every_field_apart() {
        let span = SimpleSpan::from(3..4);
        assert_eq!(SyntaxError::at(span, None).found(), None);
        for kind in K::ALL {
            let all_expected = K::ALL.iter().fold(0, |acc, k| acc | 1u64 << (*k as u8));
            let mut error = SyntaxError::expecting(span, Some(kind), all_expected);
            assert_eq!(error.found(), Some(kind));
            assert_eq!(error.expected_kinds().count(), K::ALL.len());
            error.label_with(Label::Name);
            assert_eq!(error.found(), Some(kind));
            assert_eq!(error.expected_kinds().count(), 0);
            let (_, _, message) = error.diagnostic();
            assert!(message.starts_with("expected a name, found "), "{message}");
            let other = SyntaxError::expecting(span, None, 1u64 << (K::Comma as u8));
            let merged = Error::<SigInput<'_>>::merge(error, other);
            assert_eq!(merged.found(), Some(kind));
            assert_eq!(merged.expected_kinds().collect::<Vec<_>>(), [K::Comma]);
        }
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
