//! Byte scanning for the lexer's hand-written paths: [`ByteSet`] (find the
//! first of a few bytes, eight at a time), the stops of quoted text (a
//! word mask), the stop sets of template text and comments, blank runs,
//! identifier-continue and Unicode-space tests, the one-byte punctuation
//! table, and the heredoc introducer.

use super::ident_continue_len;
use crate::token::TokenKind;

/// A set of bytes to stop at: some ASCII bytes (never zero) and,
/// optionally, every non-ASCII byte. [`ByteSet::find`] tests eight bytes
/// at a time with word arithmetic (SWAR: a byte equal to `t` is a zero
/// byte of `word ^ t * 0x01…01`, found with the usual "has a zero byte"
/// bit trick), the last one to seven bytes as one word too, so that a
/// short literal costs about as much as a long one's first word.
pub(crate) struct ByteSet<const N: usize> {
    targets: [u8; N],
    non_ascii: bool,
}

const SET_ONES: u64 = u64::from_le_bytes([0x01; 8]);
const SET_HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

impl<const N: usize> ByteSet<N> {
    pub(crate) const fn new(targets: [u8; N], non_ascii: bool) -> ByteSet<N> {
        let mut idx = 0;
        while idx < N {
            // A zero target would match the padding of a short last word.
            assert!(targets[idx] != 0 && targets[idx] < 0x80);
            idx += 1;
        }
        ByteSet { targets, non_ascii }
    }

    /// The high bit of each byte of `word` (in memory order) in the set,
    /// and possibly of bytes after the first such byte (the trick's
    /// borrow), never before it: the lowest set bit is exact.
    #[inline(always)]
    fn hits(&self, word: u64) -> u64 {
        let mut found = if self.non_ascii { word & SET_HIGHS } else { 0 };
        for target in self.targets {
            let diff = word ^ (SET_ONES * u64::from(target));
            found |= diff.wrapping_sub(SET_ONES) & !diff & SET_HIGHS;
        }
        found
    }

    /// The index of the first byte of `bytes` in the set, or `bytes.len()`.
    #[inline(always)]
    pub(crate) fn find(&self, bytes: &[u8]) -> usize {
        let mut chunks = bytes.chunks_exact(8);
        let mut offset = 0;
        for chunk in &mut chunks {
            let Ok(array) = <[u8; 8]>::try_from(chunk) else {
                break;
            };
            let found = self.hits(u64::from_le_bytes(array));
            if found != 0 {
                return offset + (found.trailing_zeros() / 8) as usize;
            }
            offset += 8;
        }
        // The zero bytes padding the last word are in no set.
        let found = self.hits(short_word(chunks.remainder()));
        if found != 0 {
            return offset + (found.trailing_zeros() / 8) as usize;
        }
        bytes.len()
    }
}

/// Up to eight bytes as a little-endian word, zero-padded: two loads that
/// may overlap (of four or two bytes) instead of a loop.
#[inline(always)]
fn short_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    match n {
        4.. => load::<4>(bytes, 0) | (load::<4>(bytes, n - 4) << (8 * (n - 4))),
        2.. => load::<2>(bytes, 0) | (load::<2>(bytes, n - 2) << (8 * (n - 2))),
        _ => load::<1>(bytes, 0),
    }
}

/// The `W` bytes of `bytes` at `at` as a little-endian word (0 past the
/// end).
#[inline(always)]
fn load<const W: usize>(bytes: &[u8], at: usize) -> u64 {
    let chunk = bytes.get(at..).and_then(<[u8]>::first_chunk::<W>);
    chunk.map_or(0, |a| {
        a.iter().rev().fold(0, |acc, b| (acc << 8) | u64::from(*b))
    })
}

/// Where heredoc and bare-template text stops.
pub(super) static TEMPLATE_STOP: ByteSet<3> = ByteSet::new([b'$', b'%', b'\n'], false);
/// Where a line comment stops.
pub(super) static LINE_END: ByteSet<1> = ByteSet::new([b'\n'], false);

/// Length of the literal text at the start of a quoted template's
/// `bytes`: characters other than `"`, `\\`, `$`, `%` and line breaks, and
/// backslash escapes (a backslash and any character but a line break).
/// A loop, so that a long string costs no stack.
pub(super) fn quoted_lit_len(bytes: &[u8]) -> usize {
    let mut len = 0;
    loop {
        len = quoted_stop(bytes, len);
        // The escaped character's UTF-8 continuation bytes (if any) are
        // taken by the next round: none of them is special.
        match (bytes.get(len), bytes.get(len + 1)) {
            (Some(b'\\'), Some(next)) if !matches!(next, b'\r' | b'\n') => len += 2,
            _ => return len,
        }
    }
}

/// Length of a `#` or `//` comment at the start of `bytes`: up to and
/// including its line break, if any.
pub(super) fn line_comment_len(bytes: &[u8]) -> usize {
    let stop = LINE_END.find(bytes);
    if stop < bytes.len() {
        stop + 1
    } else {
        stop
    }
}

/// ASCII identifier-continue bytes (`[A-Za-z0-9_-]`), as a table.
pub(super) static IDENT_CONTINUE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b as u8, b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'-');
        b += 1;
    }
    table
};

/// The end of the run of spaces and tabs continuing at `from`.
#[inline(always)]
pub(super) fn blanks_end(bytes: &[u8], from: usize) -> usize {
    let rest = bytes.get(from..).unwrap_or(&[]);
    // Most runs are one blank between two tokens, or a line's indent.
    match rest.iter().position(|b| !matches!(b, b' ' | b'\t')) {
        Some(n) => from + n,
        None => bytes.len(),
    }
}

/// The end of the identifier continuing at `from` (after its first
/// character): ASCII continue bytes by table, in chunks of four (no
/// bounds check per byte), then any non-ASCII ones. (Eight at a time with word arithmetic, as
/// [`quoted_stops`] does, cost more: the four ranges take about 30
/// instructions a word, and most identifiers are shorter than 16 bytes.)
#[inline(always)]
pub(super) fn ident_end(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let cont = |b: u8| IDENT_CONTINUE[usize::from(b)];
    let rest = bytes.get(from..).unwrap_or(&[]);
    let mut chunks = rest.chunks_exact(4);
    let mut idx = from;
    let end = 'scan: {
        for chunk in &mut chunks {
            if let &[b0, b1, b2, b3] = chunk {
                if !cont(b0) {
                    break 'scan idx;
                }
                if !cont(b1) {
                    break 'scan idx + 1;
                }
                if !cont(b2) {
                    break 'scan idx + 2;
                }
                if !cont(b3) {
                    break 'scan idx + 3;
                }
            }
            idx += 4;
        }
        match chunks.remainder().iter().position(|&b| !cont(b)) {
            Some(n) => idx + n,
            None => bytes.len(),
        }
    };
    match bytes.get(end) {
        Some(b) if !b.is_ascii() => end + ident_continue_len(text.get(end..).unwrap_or("")),
        _ => end,
    }
}

/// The kinds of the one-byte punctuation the main loop decides by table
/// (`Invalid` for every other byte).
pub(super) static PUNCT: [TokenKind; 256] = {
    let mut table = [TokenKind::Invalid; 256];
    table[b'[' as usize] = TokenKind::OBrack;
    table[b']' as usize] = TokenKind::CBrack;
    table[b'(' as usize] = TokenKind::OParen;
    table[b')' as usize] = TokenKind::CParen;
    table[b',' as usize] = TokenKind::Comma;
    table
};

const ONES: u64 = u64::from_le_bytes([0x01; 8]);
const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);

/// The high bit of the first byte of `word` (the bytes in memory order,
/// as `u64::from_le_bytes` reads them) that stops quoted-template literal
/// text: `"`, `$`, `%`, `\r`, `\n` and `\\` (see [`quoted_lit_len`]);
/// non-ASCII bytes never do. Zero when no byte does; later bytes may be
/// flagged too (the zero-byte trick's borrow runs upwards from a real
/// stop), so only the lowest set bit is meaningful.
#[inline(always)]
pub(super) fn quoted_stops(word: u64) -> u64 {
    // A byte equal to `t` is a zero byte of `word ^ t * ONES`; `x - ONES`
    // sets a zero byte's high bit, which `!x` keeps. `$` and `%` differ
    // only in the lowest bit, so `word | ONES` folds them into one test.
    let zero = |x: u64| x.wrapping_sub(ONES) & !x;
    let sigils = (word | ONES) ^ (ONES * u64::from(b'%'));
    let found = zero(sigils)
        | zero(word ^ (ONES * u64::from(b'"')))
        | zero(word ^ (ONES * u64::from(b'\r')))
        | zero(word ^ (ONES * u64::from(b'\n')))
        | zero(word ^ (ONES * u64::from(b'\\')));
    found & HIGHS
}

/// Is `b` a byte [`quoted_stops`] stops at?
fn is_quoted_stop(b: u8) -> bool {
    matches!(b, b'"' | b'$' | b'%' | b'\r' | b'\n' | b'\\')
}

/// The index of the first byte at or after `from` that stops quoted
/// text, eight bytes at a time, or `bytes.len()`. (This replaced a
/// [`ByteSet`] whose table scan of the first 16 bytes cost about seven
/// instructions a byte on short strings.)
fn quoted_stop(bytes: &[u8], from: usize) -> usize {
    let mut idx = from;
    while let Some(chunk) = bytes.get(idx..idx + 8) {
        let Ok(array) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let found = quoted_stops(u64::from_le_bytes(array));
        if found != 0 {
            return idx + (found.trailing_zeros() / 8) as usize;
        }
        idx += 8;
    }
    let tail = bytes.get(idx..).unwrap_or(&[]);
    match tail.iter().position(|&b| is_quoted_stop(b)) {
        Some(n) => idx + n,
        None => bytes.len(),
    }
}

/// Length of the greedy number lexeme at the start of `bytes` (which starts
/// with a digit): digits, `e`/`E` with an optional sign and a digit, and
/// dots, but never ending with a dot.
pub(super) fn number_len(bytes: &[u8]) -> usize {
    let exponent_at = |idx: usize| -> Option<usize> {
        match bytes.get(idx) {
            Some(b'e') | Some(b'E') => match bytes.get(idx + 1) {
                Some(b'0'..=b'9') => Some(2),
                Some(b'+') | Some(b'-') if bytes.get(idx + 2).is_some_and(u8::is_ascii_digit) => {
                    Some(3)
                }
                _ => None,
            },
            _ => None,
        }
    };
    let mut len = 1;
    loop {
        match bytes.get(len) {
            Some(b'0'..=b'9') => len += 1,
            Some(b'.') => {
                let mut after = len;
                while bytes.get(after) == Some(&b'.') {
                    after += 1;
                }
                if bytes.get(after).is_some_and(u8::is_ascii_digit) {
                    len = after + 1;
                } else if let Some(exp) = exponent_at(after) {
                    len = after + exp;
                } else {
                    return len;
                }
            }
            _ => match exponent_at(len) {
                Some(exp) => len += exp,
                None => return len,
            },
        }
    }
}

/// Go's `unicode.IsSpace`.
pub(crate) fn is_unicode_space(ch: char) -> bool {
    matches!(
        ch,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{85}' | '\u{a0}'
    ) || (ch > '\u{ff}' && ch.is_whitespace())
}

/// Matches `<<ID⏎` or `<<-ID⏎` at the start of `rest`: returns the token
/// length and the marker's byte range relative to `rest`.
pub(super) fn heredoc_intro(rest: &str) -> Option<(usize, (usize, usize))> {
    let after = rest.strip_prefix("<<")?;
    let (after, dash) = match after.strip_prefix('-') {
        Some(tail) => (tail, 1),
        None => (after, 0),
    };
    let first = after.chars().next()?;
    if !(first == '_' || unicode_ident::is_xid_start(first)) {
        return None;
    }
    let ident_len = first.len_utf8() + ident_continue_len(after.get(first.len_utf8()..)?);
    let marker_start = 2 + dash;
    let tail = after.get(ident_len..)?;
    let newline_len = if tail.starts_with("\r\n") {
        2
    } else if tail.starts_with('\n') {
        1
    } else {
        return None;
    };
    Some((
        marker_start + ident_len + newline_len,
        (marker_start, marker_start + ident_len),
    ))
}
