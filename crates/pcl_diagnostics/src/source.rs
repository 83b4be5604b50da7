//! Source files, byte ranges and human positions.
//!
//! Every phase speaks in byte offsets ([`TextRange`]) into one file, and a
//! [`Span`] adds the [`FileId`] so that a diagnostic or a reference can point
//! into any file of a multi-file program. Conversion to human positions
//! happens only here, in [`LineIndex`]: lines are 1-based, columns are 1-based
//! and counted in Unicode grapheme clusters (as HCL and Pulumi count them),
//! and the 0-based byte offset is kept beside them.

use std::fmt;
use std::sync::Arc;

use unicode_segmentation::UnicodeSegmentation;

/// Identifies one file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FileId(pub u32);

/// A half-open range of byte offsets `start..end` within one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct TextRange {
    pub start: u32,
    pub end: u32,
}

impl TextRange {
    /// Builds a range; `end` is raised to `start` if it is smaller.
    #[inline]
    pub fn new(start: u32, end: u32) -> TextRange {
        TextRange {
            start,
            end: end.max(start),
        }
    }

    /// An empty range at `offset`.
    #[inline]
    pub fn empty(offset: u32) -> TextRange {
        TextRange::new(offset, offset)
    }

    /// Converts a `usize` range, saturating at `u32::MAX`.
    #[inline]
    pub fn from_usize(range: std::ops::Range<usize>) -> TextRange {
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        TextRange::new(clamp(range.start), clamp(range.end))
    }

    #[inline]
    pub fn len(self) -> u32 {
        self.end - self.start
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The smallest range covering both.
    #[inline]
    pub fn cover(self, other: TextRange) -> TextRange {
        TextRange::new(self.start.min(other.start), self.end.max(other.end))
    }

    #[inline]
    pub fn contains_range(self, other: TextRange) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    #[inline]
    pub fn to_usize(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

impl fmt::Display for TextRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// A range in a particular file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub range: TextRange,
}

impl Span {
    pub fn new(file: FileId, range: TextRange) -> Span {
        Span { file, range }
    }
}

/// A human position: 1-based line and grapheme column, 0-based byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    pub line: u32,
    pub column: u32,
    pub byte: u32,
}

/// Maps byte offsets of one text to [`Position`]s.
///
/// A line ends after `\n` (so `\r\n` belongs to the line it ends). A lone
/// `\r` does not end a line, matching HCL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    line_starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        for (idx, byte) in text.bytes().enumerate() {
            if byte == b'\n' {
                line_starts.push(u32::try_from(idx + 1).unwrap_or(u32::MAX));
            }
        }
        LineIndex { line_starts }
    }

    /// Number of lines (a text without newlines has one).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The position of `offset` in `text` (the text this index was built
    /// from). Offsets past the end are clamped to the end; offsets inside a
    /// UTF-8 sequence are moved back to its first byte.
    pub fn position(&self, text: &str, offset: u32) -> Position {
        let mut offset = (offset as usize).min(text.len());
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line_idx = match self.line_starts.binary_search(&(offset as u32)) {
            Ok(idx) => idx,
            Err(idx) => idx.saturating_sub(1),
        };
        let line_start = self.line_starts.get(line_idx).copied().unwrap_or(0) as usize;
        let prefix = text.get(line_start..offset).unwrap_or("");
        let column = prefix.graphemes(true).count() + 1;
        Position {
            line: u32::try_from(line_idx + 1).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
            byte: offset as u32,
        }
    }
}

/// One source file: its display name, its text and its line index.
#[derive(Debug)]
pub struct SourceFile {
    name: String,
    text: Arc<str>,
    line_index: LineIndex,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> SourceFile {
        let text = text.into();
        let line_index = LineIndex::new(&text);
        SourceFile {
            name: name.into(),
            text,
            line_index,
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn shared_text(&self) -> Arc<str> {
        Arc::clone(&self.text)
    }

    pub fn line_index(&self) -> &LineIndex {
        &self.line_index
    }

    pub fn position(&self, offset: u32) -> Position {
        self.line_index.position(&self.text, offset)
    }
}

/// The files of one check, addressed by [`FileId`].
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        let id = FileId(u32::try_from(self.files.len()).unwrap_or(u32::MAX));
        self.files.push(SourceFile::new(name, text));
        id
    }

    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize)
    }

    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(idx, file)| (FileId(idx as u32), file))
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_one_based_grapheme_columns() {
        let text = "a = 1\r\nb = \"e\u{301}x\"\n";
        let index = LineIndex::new(text);
        assert_eq!(
            index.position(text, 0),
            Position {
                line: 1,
                column: 1,
                byte: 0
            }
        );
        // `x` follows `"` and an e with a combining accent: one cluster.
        let x = text.find('x').unwrap() as u32;
        let pos = index.position(text, x);
        assert_eq!((pos.line, pos.column), (2, 7));
        // Past the end clamps.
        let end = index.position(text, 1000);
        assert_eq!((end.line, end.column, end.byte), (3, 1, text.len() as u32));
    }

    #[test]
    fn offset_inside_a_character_moves_back() {
        let text = "é";
        let index = LineIndex::new(text);
        assert_eq!(index.position(text, 1).byte, 0);
    }

    #[test]
    fn lone_carriage_return_is_not_a_line_break() {
        let text = "a\rb\nc";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 2);
        assert_eq!(index.position(text, 2).line, 1);
        assert_eq!(index.position(text, 4).line, 2);
    }
}
