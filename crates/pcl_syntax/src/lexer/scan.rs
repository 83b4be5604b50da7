//! Byte scanning for the lexer's hand-written paths: [`ByteSet`] (find the
//! first of a few bytes, eight at a time), the stop sets of quoted and
//! template text, identifier-continue and Unicode-space tests, and the
//! heredoc introducer.

use super::ident_continue_len;

/// A set of bytes to stop at: some ASCII bytes and, optionally, every
/// non-ASCII byte. [`ByteSet::find`] tests the first 16 bytes one at a
/// time (a table load each) and the rest eight at a time (SWAR: a byte
/// equal to `t` is a zero byte of `word ^ t * 0x01…01`, found with the
/// usual "has a zero byte" bit trick), so long literal text and comments
/// cost about one instruction per byte.
pub(crate) struct ByteSet<const N: usize> {
    targets: [u8; N],
    non_ascii: bool,
    table: [bool; 256],
}

impl<const N: usize> ByteSet<N> {
    pub(crate) const fn new(targets: [u8; N], non_ascii: bool) -> ByteSet<N> {
        let mut table = [false; 256];
        let mut idx = 0;
        while idx < N {
            table[targets[idx] as usize] = true;
            idx += 1;
        }
        if non_ascii {
            let mut b = 0x80;
            while b < 256 {
                table[b] = true;
                b += 1;
            }
        }
        ByteSet {
            targets,
            non_ascii,
            table,
        }
    }

    fn scan(&self, bytes: &[u8]) -> Option<usize> {
        bytes.iter().position(|&b| self.table[usize::from(b)])
    }

    /// The index of the first byte of `bytes` in the set, or `bytes.len()`.
    #[inline(always)]
    pub(crate) fn find(&self, bytes: &[u8]) -> usize {
        const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
        const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
        // Short inputs (most strings) are not worth a word.
        let head = bytes.get(..16).unwrap_or(bytes);
        if let Some(idx) = self.scan(head) {
            return idx;
        }
        let mut offset = head.len();
        let rest = bytes.get(offset..).unwrap_or(&[]);
        for chunk in rest.chunks_exact(8) {
            let Ok(array) = <[u8; 8]>::try_from(chunk) else {
                break;
            };
            let word = u64::from_ne_bytes(array);
            let mut found = if self.non_ascii { word & HIGHS } else { 0 };
            for target in self.targets {
                let diff = word ^ (ONES * u64::from(target));
                found |= diff.wrapping_sub(ONES) & !diff & HIGHS;
            }
            if found != 0 {
                // Nonzero exactly when some byte is in the set (the trick
                // has false positives only above a real zero byte).
                return offset + self.scan(chunk).unwrap_or(8);
            }
            offset += 8;
        }
        let tail = bytes.get(offset..).unwrap_or(&[]);
        offset + self.scan(tail).unwrap_or(tail.len())
    }
}

/// Where quoted-template literal text stops (see [`quoted_lit_len`]).
pub(super) static QUOTED_STOP: ByteSet<6> =
    ByteSet::new([b'"', b'$', b'%', b'\r', b'\n', b'\\'], false);
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
        let rest = bytes.get(len..).unwrap_or(&[]);
        len += QUOTED_STOP.find(rest);
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
