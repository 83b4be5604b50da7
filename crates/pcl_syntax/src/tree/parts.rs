//! Template parts, stored in 16 bytes: the range, one word, a tag and
//! the strip markers.
//!
//! A literal whose text is its source bytes (the usual case) is its range
//! alone; one whose decoded text differs keeps that text (its place in
//! the side buffer) in `literal_texts`, as it would not fit beside the
//! range.
//! An interpolation keeps its expression and strip markers, a directive
//! its index in `template_ifs` or `template_fors`.

use pcl_diagnostics::TextRange;

use super::{ExprId, PartNode, PartNodeKind, Strip, Text, Tree};

/// One stored template part (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct StoredPart {
    pub(crate) range: TextRange,
    a: u32,
    tag: PartTag,
    /// Bit 0: strip on the left; bit 1: strip on the right.
    strip: u8,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum PartTag {
    SourceLiteral,
    /// Decoded text that differs from the source: an index into
    /// `literal_texts`.
    OtherLiteral,
    Interpolation,
    If,
    For,
}

impl StoredPart {
    /// `part` as stored: a literal's decoded text must be its source
    /// (at the part's range) or in the side buffer.
    #[inline]
    pub(crate) fn new(tree: &mut Tree, part: PartNode) -> StoredPart {
        let (tag, a, strip) = match part.kind {
            PartNodeKind::Literal(Text::Source(range)) if range == part.range => {
                (PartTag::SourceLiteral, 0, Strip::default())
            }
            PartNodeKind::Literal(text) => {
                let index = tree.literal_texts.len() as u32;
                tree.literal_texts.push(text);
                (PartTag::OtherLiteral, index, Strip::default())
            }
            PartNodeKind::Interpolation { expr, strip } => (PartTag::Interpolation, expr.0, strip),
            PartNodeKind::If(i) => (PartTag::If, i, Strip::default()),
            PartNodeKind::For(i) => (PartTag::For, i, Strip::default()),
        };
        StoredPart {
            range: part.range,
            a,
            tag,
            strip: u8::from(strip.left) | (u8::from(strip.right) << 1),
        }
    }

    /// The part as it was given to [`StoredPart::new`].
    #[inline]
    pub(crate) fn get(&self, tree: &Tree) -> PartNode {
        let kind = match self.tag {
            PartTag::SourceLiteral => PartNodeKind::Literal(Text::Source(self.range)),
            PartTag::OtherLiteral => PartNodeKind::Literal(
                tree.literal_texts
                    .get(self.a as usize)
                    .copied()
                    .unwrap_or(Text::Source(TextRange::empty(self.range.start))),
            ),
            PartTag::Interpolation => PartNodeKind::Interpolation {
                expr: ExprId(self.a),
                strip: Strip {
                    left: self.strip & 1 != 0,
                    right: self.strip & 2 != 0,
                },
            },
            PartTag::If => PartNodeKind::If(self.a),
            PartTag::For => PartNodeKind::For(self.a),
        };
        PartNode {
            kind,
            range: self.range,
        }
    }
}
