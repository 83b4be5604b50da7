//! Byte offsets ↔ LSP positions in the negotiated encoding.
//!
//! LSP positions are a 0-based line and a 0-based character offset counted
//! in UTF-16 code units (the default) or UTF-8 bytes (when the client offers
//! `utf-8` in `general.positionEncodings`). A line ends after `\n`, as in
//! [`pcl_diagnostics::LineIndex`]. Each conversion costs a binary search
//! over the line starts plus one pass over the prefix of one line.

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
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter_map(|(i, b)| (b == b'\n').then_some(i + 1)),
        );
        Lines { starts }
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
        let prefix = text.get(start..offset).unwrap_or("");
        let character: usize = prefix.chars().map(|c| enc.width(c)).sum();
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
        let mut units = 0;
        for (i, c) in line.char_indices() {
            let next = units + enc.width(c);
            if next > want {
                return start + i;
            }
            units = next;
        }
        start + line.len()
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
