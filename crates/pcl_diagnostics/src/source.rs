//! Source files, byte ranges and human positions.
//!
//! Every phase speaks in byte offsets ([`TextRange`]) into one file, and a
//! [`Span`] adds the [`FileId`] so that a diagnostic or a reference can point
//! into any file of a multi-file program. Conversion to human positions
//! happens only here, in [`LineIndex`]: lines are 1-based, columns are 1-based
//! and counted in Unicode grapheme clusters (as HCL and Pulumi count them),
//! and the 0-based byte offset is kept beside them.

use std::fmt;
use std::sync::{Arc, OnceLock};

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

impl TextRange {
    /// The range moved by `delta` bytes; `None` when that leaves `u32`.
    pub fn shifted(self, delta: i64) -> Option<TextRange> {
        let at = |x: u32| u32::try_from(i64::from(x).checked_add(delta)?).ok();
        Some(TextRange {
            start: at(self.start)?,
            end: at(self.end)?,
        })
    }
}

/// One edit of one file's text, for moving what was found in the old text
/// to where it is in the new one: the bytes `start..old_end` of the old
/// text became `start..new_end` of the new one; the rest is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub file: FileId,
    pub start: u32,
    pub old_end: u32,
    pub new_end: u32,
}

impl TextEdit {
    /// How far text after the edit moved.
    pub fn delta(&self) -> i64 {
        i64::from(self.new_end) - i64::from(self.old_end)
    }

    /// Where `range` of the old text is in the new one: unchanged before
    /// the edit, shifted after it; `None` when it overlaps the edited
    /// bytes (or covers them), which have no place in the new text.
    pub fn map_range(&self, range: TextRange) -> Option<TextRange> {
        if range.end <= self.start {
            Some(range)
        } else if range.start >= self.old_end {
            range.shifted(self.delta())
        } else {
            None
        }
    }

    /// [`TextEdit::map_range`] for a span (spans of other files stay).
    pub fn map_span(&self, span: Span) -> Option<Span> {
        if span.file != self.file {
            return Some(span);
        }
        Some(Span::new(span.file, self.map_range(span.range)?))
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
///
/// Columns on short lines are counted from the line start. A line longer
/// than [`LineIndex::LONG_LINE`] bytes gets a table of checkpoints (the
/// byte offset of every [`LineIndex::CHECKPOINT_EVERY`]-th grapheme), built
/// the first time a position on it is asked for, so that many positions on
/// one huge line (a 10 MB generated line, a 100 000-term chain) cost
/// O(log n + [`LineIndex::CHECKPOINT_EVERY`]) each instead of O(line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    line_starts: Vec<u32>,
    /// `(line index, checkpoints)` for every long line, by line index.
    long_lines: Vec<(u32, OnceLock<Vec<Checkpoint>>)>,
}

impl LineIndex {
    /// Lines longer than this (in bytes) get grapheme checkpoints.
    pub const LONG_LINE: usize = 256;
    /// Graphemes between two checkpoints of a long line.
    pub const CHECKPOINT_EVERY: usize = 64;

    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        let mut long_lines = Vec::new();
        let mut start = 0usize;
        for idx in newline_offsets(text) {
            if idx + 1 - start > LineIndex::LONG_LINE {
                long_lines.push((line_number(line_starts.len() - 1), OnceLock::new()));
            }
            line_starts.push(u32::try_from(idx + 1).unwrap_or(u32::MAX));
            start = idx + 1;
        }
        if text.len() - start > LineIndex::LONG_LINE {
            long_lines.push((line_number(line_starts.len() - 1), OnceLock::new()));
        }
        LineIndex {
            line_starts,
            long_lines,
        }
    }

    /// Number of lines (a text without newlines has one).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The 0-based index of the line holding byte `offset` (offsets past
    /// the end are on the last line). O(log lines).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = u32::try_from(offset).unwrap_or(u32::MAX);
        match self.line_starts.binary_search(&offset) {
            Ok(idx) => idx,
            Err(idx) => idx.saturating_sub(1),
        }
    }

    /// The byte range of line `line` (0-based) in a text of `len` bytes,
    /// its line break included; `None` past the last line.
    pub fn line_range(&self, line: usize, len: usize) -> Option<std::ops::Range<usize>> {
        let start = *self.line_starts.get(line)? as usize;
        let end = self
            .line_starts
            .get(line + 1)
            .map_or(len, |&next| next as usize);
        Some(start.min(len)..end.min(len))
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
        let column = self.column(text, line_idx, line_start, offset);
        Position {
            line: u32::try_from(line_idx + 1).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
            byte: offset as u32,
        }
    }
}

impl LineIndex {
    /// The 1-based grapheme column of `offset` (a char boundary) on the line
    /// `line_idx` that starts at `line_start`.
    fn column(&self, text: &str, line_idx: usize, line_start: usize, offset: usize) -> usize {
        match self.checkpoint(text, line_idx, line_start, offset) {
            None => {
                let prefix = text.get(line_start..offset).unwrap_or("");
                prefix.graphemes(true).count() + 1
            }
            Some((k, from)) => {
                let prefix = text.get(from.byte as usize..offset).unwrap_or("");
                k * LineIndex::CHECKPOINT_EVERY + prefix.graphemes(true).count() + 1
            }
        }
    }

    /// The 1-based column of `offset` in `text` counted in characters
    /// (Unicode code points), as SARIF's `unicodeCodePoints` counts;
    /// O(log n + [`LineIndex::CHECKPOINT_EVERY`]) on long lines too.
    pub fn code_point_column(&self, text: &str, offset: u32) -> u32 {
        let mut offset = (offset as usize).min(text.len());
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line_idx = self.line_of(offset);
        let line_start = self.line_starts.get(line_idx).copied().unwrap_or(0) as usize;
        let (from, base) = match self.checkpoint(text, line_idx, line_start, offset) {
            None => (line_start, 0),
            Some((_, c)) => (c.byte as usize, c.chars as usize),
        };
        let prefix = text.get(from..offset).unwrap_or("");
        u32::try_from(base + prefix.chars().count() + 1).unwrap_or(u32::MAX)
    }

    /// On a long line, the index and value of the last checkpoint at or
    /// before `offset` (the checkpoints are built on first use); `None` on
    /// a short line.
    fn checkpoint(
        &self,
        text: &str,
        line_idx: usize,
        line_start: usize,
        offset: usize,
    ) -> Option<(usize, Checkpoint)> {
        let i = self
            .long_lines
            .binary_search_by_key(&line_number(line_idx), |(line, _)| *line)
            .ok()?;
        let (_, checkpoints) = self.long_lines.get(i)?;
        let checkpoints = checkpoints.get_or_init(|| {
            let line_end = self
                .line_starts
                .get(line_idx + 1)
                .map_or(text.len(), |&s| s as usize);
            let line = text.get(line_start..line_end).unwrap_or("");
            let mut chars = 0usize;
            let mut last = 0usize;
            line.grapheme_indices(true)
                .step_by(LineIndex::CHECKPOINT_EVERY)
                .map(|(i, _)| {
                    chars += line.get(last..i).map_or(0, |s| s.chars().count());
                    last = i;
                    Checkpoint {
                        byte: u32::try_from(line_start + i).unwrap_or(u32::MAX),
                        chars: u32::try_from(chars).unwrap_or(u32::MAX),
                    }
                })
                .collect()
        });
        // The last checkpoint at or before `offset`; segmentation restarted
        // at a grapheme boundary finds the same boundaries after it.
        let k = checkpoints
            .partition_point(|c| c.byte as usize <= offset)
            .saturating_sub(1);
        let c = checkpoints.get(k).copied().unwrap_or(Checkpoint {
            byte: u32::try_from(line_start).unwrap_or(u32::MAX),
            chars: 0,
        });
        Some((k, c))
    }
}

/// The byte offset of a grapheme boundary on a long line, and the number
/// of characters (code points) from the line start to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Checkpoint {
    byte: u32,
    chars: u32,
}

fn line_number(line_idx: usize) -> u32 {
    u32::try_from(line_idx).unwrap_or(u32::MAX)
}

/// Byte offsets of every `\n` in `text`.
fn newline_offsets(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter_map(|(i, b)| (b == b'\n').then_some(i))
}

/// One source file: its display name, its text and its line index (built
/// the first time a position is asked for, so a file nothing reports on
/// never pays for it).
#[derive(Debug)]
pub struct SourceFile {
    name: String,
    text: Arc<str>,
    line_index: OnceLock<LineIndex>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
            line_index: OnceLock::new(),
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
        self.line_index.get_or_init(|| LineIndex::new(&self.text))
    }

    pub fn position(&self, offset: u32) -> Position {
        self.line_index().position(&self.text, offset)
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

    /// Replaces the text of file `id` (its name stays); `false` when there
    /// is no such file.
    pub fn replace_text(&mut self, id: FileId, text: impl Into<Arc<str>>) -> bool {
        match self.files.get_mut(id.0 as usize) {
            Some(file) => {
                *file = SourceFile::new(std::mem::take(&mut file.name), text);
                true
            }
            None => false,
        }
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

    /// Positions on long lines (checkpointed) agree with counting from the
    /// line start at every offset, inside multi-byte characters and
    /// grapheme clusters too.
    #[test]
    fn long_line_positions_match_counting_from_the_line_start() {
        let tricky =
            "a\u{301}b \u{1F1EB}\u{1F1F7}\u{1F1E9}\u{1F1EA} \u{1F469}\u{200d}\u{1F467} \t\u{915}\u{94d}\u{937} e\u{308}\u{301}x";
        let long_line = tricky.repeat(60);
        assert!(long_line.len() > LineIndex::LONG_LINE);
        let text = format!("short {tricky}\n{long_line}\n{long_line}x\r\n\u{301}{long_line}");
        let index = LineIndex::new(&text);
        assert_eq!(index.long_lines.len(), 3);
        let naive = |offset: usize| {
            let mut at = offset.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            text[start..at].graphemes(true).count() + 1
        };
        let naive_chars = |offset: usize| {
            let mut at = offset.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            text[start..at].chars().count() + 1
        };
        for offset in 0..=text.len() + 2 {
            let p = index.position(&text, offset as u32);
            assert_eq!(p.column as usize, naive(offset), "offset {offset}");
            let c = index.code_point_column(&text, offset as u32);
            assert_eq!(c as usize, naive_chars(offset), "offset {offset}");
        }
        assert!(index.long_lines.iter().all(|(_, c)| c.get().is_some()));
    }

    /// A file's line index is built on first use, and gives what an index
    /// built up front gives.
    #[test]
    fn line_index_is_built_on_first_use() {
        let text = "a = 1\nb = \"\u{e9}\"\r\n\nc";
        let mut map = SourceMap::new();
        let id = map.add("main.pp", text);
        let file = map.get(id).unwrap();
        assert!(file.line_index.get().is_none());
        assert_eq!(file.text(), text);
        let eager = LineIndex::new(text);
        for offset in 0..=text.len() as u32 + 1 {
            assert_eq!(file.position(offset), eager.position(text, offset));
        }
        assert!(file.line_index.get().is_some());
        assert_eq!(file.line_index(), &eager);
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
