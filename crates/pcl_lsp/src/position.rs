//! Byte offsets ↔ LSP positions in the negotiated encoding.
//!
//! LSP positions are a 0-based line and a 0-based character offset counted
//! in UTF-16 code units (the default) or UTF-8 bytes (when the client offers
//! `utf-8` in `general.positionEncodings`). A line ends after `\n`, as in
//! [`pcl_diagnostics::LineIndex`]. UTF-8 columns are byte differences;
//! UTF-16 columns come from a table of checkpoints (the UTF-16 length of
//! the text before every [`Lines::CHECKPOINT_EVERY`]-th byte), so each
//! conversion costs two binary searches and a scan of at most a few
//! hundred bytes, however long the line (20,000 references on one line
//! would otherwise cost a pass over the line each).

/// The position encoding agreed with the client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    /// Picks UTF-8 when the client offers it, else UTF-16 (the protocol's
    /// default, which every client supports).
    pub fn negotiate(offered: Option<&[lsp_types::PositionEncodingKind]>) -> Encoding {
        let utf8 = offered
            .unwrap_or(&[])
            .contains(&lsp_types::PositionEncodingKind::UTF8);
        if utf8 {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    pub fn kind(self) -> lsp_types::PositionEncodingKind {
        match self {
            Encoding::Utf8 => lsp_types::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lsp_types::PositionEncodingKind::UTF16,
        }
    }

    fn width(self, c: char) -> usize {
        match self {
            Encoding::Utf8 => c.len_utf8(),
            Encoding::Utf16 => c.len_utf16(),
        }
    }
}

/// The start of every line of one text.
#[derive(Clone, Debug)]
pub struct Lines {
    starts: Vec<usize>,
    /// `(byte, UTF-16 units before it)` at char boundaries about every
    /// `CHECKPOINT_EVERY` bytes, from `(0, 0)`.
    checkpoints: Vec<(usize, usize)>,
}

impl Lines {
    /// Bytes between two UTF-16 checkpoints (at least).
    pub const CHECKPOINT_EVERY: usize = 256;

    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        // A checkpoint at the first char boundary at least
        // CHECKPOINT_EVERY bytes after the previous one; an ASCII stretch
        // (the common case) counts its bytes without decoding them.
        let mut checkpoints = vec![(0, 0)];
        let mut units = 0;
        let mut at = 0;
        loop {
            let mut next = at + Lines::CHECKPOINT_EVERY;
            while next < text.len() && !text.is_char_boundary(next) {
                next += 1;
            }
            if next >= text.len() {
                break;
            }
            let chunk = text.get(at..next).unwrap_or("");
            units += if chunk.is_ascii() {
                chunk.len()
            } else {
                chunk.chars().map(char::len_utf16).sum()
            };
            checkpoints.push((next, units));
            at = next;
        }
        Lines {
            starts,
            checkpoints,
        }
    }

    /// The UTF-16 length of `text[..offset]` (`offset` a char boundary).
    fn utf16_before(&self, text: &str, offset: usize) -> usize {
        let k = self
            .checkpoints
            .partition_point(|&(b, _)| b <= offset)
            .saturating_sub(1);
        let (from, units) = self.checkpoints.get(k).copied().unwrap_or((0, 0));
        let rest: usize = text
            .get(from..offset)
            .unwrap_or("")
            .chars()
            .map(char::len_utf16)
            .sum();
        units + rest
    }

    /// The LSP position of byte `offset` (clamped to the text, moved back to
    /// a character boundary).
    pub fn position(&self, text: &str, offset: usize, enc: Encoding) -> lsp_types::Position {
        let mut offset = offset.min(text.len());
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0);
        let character = match enc {
            Encoding::Utf8 => offset - start.min(offset),
            Encoding::Utf16 => {
                self.utf16_before(text, offset) - self.utf16_before(text, start.min(offset))
            }
        };
        lsp_types::Position {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            character: u32::try_from(character).unwrap_or(u32::MAX),
        }
    }

    /// The byte offset of an LSP position. A line past the end gives the end
    /// of the text; a character past the end of its line gives the end of
    /// the line (before its line break); a character inside a UTF-16
    /// surrogate pair gives the start of that character.
    pub fn offset(&self, text: &str, pos: lsp_types::Position, enc: Encoding) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .copied()
            .unwrap_or(text.len());
        let line = text.get(start..end).unwrap_or("");
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let want = pos.character as usize;
        // Start the scan at the last checkpoint at or before the wanted
        // column (never before the line).
        let (mut at, mut units) = match enc {
            Encoding::Utf8 => {
                let mut at = (start + want).min(start + line.len());
                while at > start && !text.is_char_boundary(at) {
                    at -= 1;
                }
                (at, at - start)
            }
            Encoding::Utf16 => {
                let base = self.utf16_before(text, start);
                let k = self
                    .checkpoints
                    .partition_point(|&(b, u)| b <= start + line.len() && u <= base + want)
                    .saturating_sub(1);
                match self.checkpoints.get(k) {
                    Some(&(b, u)) if b > start => (b, u - base),
                    _ => (start, 0),
                }
            }
        };
        let line_end = start + line.len();
        for c in text.get(at..line_end).unwrap_or("").chars() {
            let next = units + enc.width(c);
            if next > want {
                return at;
            }
            units = next;
            at += c.len_utf8();
        }
        line_end
    }

    pub fn range(
        &self,
        text: &str,
        range: std::ops::Range<usize>,
        enc: Encoding,
    ) -> lsp_types::Range {
        lsp_types::Range {
            start: self.position(text, range.start, enc),
            end: self.position(text, range.end, enc),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::Position;

    #[test]
    fn utf16_and_utf8_columns() {
        // `é` is 2 UTF-8 bytes and 1 UTF-16 unit; `𝄞` is 4 bytes and 2 units.
        let text = "a = \"é𝄞x\"\nb = 1\r\nc";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap_or(0);
        assert_eq!(
            lines.position(text, x, Encoding::Utf16),
            Position::new(0, 8)
        );
        assert_eq!(
            lines.position(text, x, Encoding::Utf8),
            Position::new(0, 11)
        );
        assert_eq!(lines.offset(text, Position::new(0, 8), Encoding::Utf16), x);
        assert_eq!(lines.offset(text, Position::new(0, 11), Encoding::Utf8), x);
        // Inside the surrogate pair: the start of the character.
        let clef = text.find('𝄞').unwrap_or(0);
        assert_eq!(
            lines.offset(text, Position::new(0, 7), Encoding::Utf16),
            clef
        );
        // Past the end of a CRLF line: before the `\r`.
        let b_end = text.find('\r').unwrap_or(0);
        assert_eq!(
            lines.offset(text, Position::new(1, 99), Encoding::Utf16),
            b_end
        );
        // Past the last line: the end of the text.
        assert_eq!(
            lines.offset(text, Position::new(9, 0), Encoding::Utf16),
            text.len()
        );
        assert_eq!(
            lines.position(text, text.len(), Encoding::Utf16),
            Position::new(2, 1)
        );
        // Inside a UTF-8 sequence: moved back to its start.
        let e = text.find('é').unwrap_or(0);
        assert_eq!(
            lines.position(text, e + 1, Encoding::Utf8),
            lines.position(text, e, Encoding::Utf8)
        );
    }

    /// The checkpointed conversions agree with a plain count on long
    /// mixed lines, both ways, at every character.
    #[test]
    fn checkpoints_agree_with_counting() {
        let line: String = (0..300).map(|i| ["a", "é", "𝄞", "xy"][i % 4]).collect();
        let text = format!("{line}\n{line}\r\nend");
        let lines = Lines::new(&text);
        assert!(lines.checkpoints.len() > 4);
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            let mut line_no = 0;
            let mut col = 0;
            for (i, c) in text.char_indices() {
                let p = lines.position(&text, i, enc);
                assert_eq!(p, Position::new(line_no, col), "{enc:?} at {i}");
                if c != '\r' && c != '\n' {
                    assert_eq!(lines.offset(&text, p, enc), i, "{enc:?} back at {i}");
                }
                if c == '\n' {
                    line_no += 1;
                    col = 0;
                } else {
                    col += u32::try_from(enc.width(c)).unwrap_or(0);
                }
            }
        }
    }

    /// Long ASCII stretches (counted without decoding) between wide
    /// characters, one of them across a checkpoint's place.
    #[test]
    fn ascii_stretches_count_as_their_bytes() {
        let text = format!(
            "{}𝄞{}é\n{}",
            "a".repeat(254),
            "b".repeat(600),
            "c".repeat(300)
        );
        let lines = Lines::new(&text);
        let mut units = 0;
        for (i, c) in text.char_indices() {
            assert_eq!(lines.utf16_before(&text, i), units, "at {i}");
            units += c.len_utf16();
        }
        assert!(lines
            .checkpoints
            .iter()
            .all(|&(b, _)| text.is_char_boundary(b)));
    }

    #[test]
    fn negotiation_prefers_utf8_only_when_offered() {
        use lsp_types::PositionEncodingKind as K;
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        assert_eq!(Encoding::negotiate(Some(&[K::UTF16])), Encoding::Utf16);
        assert_eq!(
            Encoding::negotiate(Some(&[K::UTF16, K::UTF8])),
            Encoding::Utf8
        );
    }
}
