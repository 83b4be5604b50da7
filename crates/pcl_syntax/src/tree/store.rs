//! How expressions are stored: a 16-byte [`Slot`] and a one-byte tag per
//! stored node, and one-token expressions not stored at all.
//!
//! **Leaves.** A number, a variable, `true`/`false`/`null` and a plain
//! quoted string (one literal part whose text is its source bytes, or
//! none) are most of the expressions of a dense input, and everything
//! about them is in the source: such an expression gets no slot. Its
//! [`ExprId`] has the [`LEAF`] bit set and holds the byte offset where it
//! starts; its end is the first bit set at or after that offset in the
//! tree's `leaf_ends` bitset (one bit per source byte, set at each leaf's
//! last byte), and its kind is read from the source on demand: a digit
//! starts a number (whose value is decoded again, exactly as the parser
//! decoded it), a `"` a plain string, anything else a name. The builder
//! also keeps the leaves' first bytes, to refuse a leaf that would
//! overlap another (it is then stored as a node). An integer wider than
//! a `u64` is stored (its `BigInt` lives in a side table), as is any leaf
//! starting at or past 2 GiB.
//!
//! **Slots.** A stored node is its range and two `u32`s, whose meaning
//! the tag gives ([`encode`] / [`Tree::expr_kind`] are the two
//! directions). The forms with more payload store the rest elsewhere: a
//! binary operator's position is its offset from the end of the left
//! operand (up to [`MAX_OP_GAP`], in the tag; a wider gap moves the node to
//! `wide_binaries`), a conditional's three operands live in
//! `conditionals`, and a traversal whose source is a leaf at its own start
//! (`a.b.c`) keeps only its steps (other sources go to `traversals`).

use num_traits::ToPrimitive;
use pcl_diagnostics::TextRange;

use super::builder::NumberLit as Decoded;
use super::*;
use crate::literal::parse_number;

/// The bit of an [`ExprId`] that marks a leaf (the rest is its offset).
pub(crate) const LEAF: u32 = 1 << 31;

/// One stored expression (its tag lives in a parallel vector).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Slot {
    pub(crate) range: TextRange,
    pub(crate) a: u32,
    pub(crate) b: u32,
}

/// A binary node whose operator is far from its left operand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct WideBinary {
    pub(crate) op: BinaryOp,
    pub(crate) op_start: u32,
    pub(crate) lhs: ExprId,
    pub(crate) rhs: ExprId,
}

/// The widest operator gap kept in a binary node's tag.
pub(crate) const MAX_OP_GAP: u32 = 3;

/// The tags of stored nodes.
pub(crate) mod tag {
    pub(crate) const INT: u8 = 0;
    pub(crate) const BIG_INT: u8 = 1;
    pub(crate) const FRACTION: u8 = 2;
    pub(crate) const INVALID_NUMBER: u8 = 3;
    pub(crate) const BOOL: u8 = 4;
    pub(crate) const NULL: u8 = 5;
    pub(crate) const TEMPLATE: u8 = 6;
    pub(crate) const VARIABLE: u8 = 7;
    /// `a`: an index into `traversals`.
    pub(crate) const TRAVERSAL: u8 = 8;
    /// The source is the leaf at the node's start; `a`, `b`: the steps.
    pub(crate) const LEAF_TRAVERSAL: u8 = 9;
    pub(crate) const SPLAT: u8 = 10;
    pub(crate) const SPLAT_ITEM: u8 = 11;
    pub(crate) const CALL: u8 = 12;
    pub(crate) const FOR: u8 = 13;
    /// `a`: an index into `conditionals`.
    pub(crate) const CONDITIONAL: u8 = 14;
    pub(crate) const NEGATE: u8 = 15;
    pub(crate) const NOT: u8 = 16;
    pub(crate) const TUPLE: u8 = 17;
    pub(crate) const OBJECT: u8 = 18;
    pub(crate) const PARENS: u8 = 19;
    pub(crate) const ERROR: u8 = 20;
    /// `a`: an index into `wide_binaries`.
    pub(crate) const WIDE_BINARY: u8 = 21;
    /// `BINARY + 4 * op + gap`: `a`, `b` are the operands and the operator
    /// starts `gap` bytes after the left one ends.
    pub(crate) const BINARY: u8 = 32;
}

fn split(value: u64) -> (u32, u32) {
    (value as u32, (value >> 32) as u32)
}

fn join(lo: u32, hi: u32) -> u64 {
    u64::from(lo) | (u64::from(hi) << 32)
}

/// A set of byte offsets, one bit each.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bits(Vec<u64>);

impl Bits {
    /// Room for offsets below `len`, all clear (the zeroed pages are
    /// only touched where bits get set).
    pub(crate) fn with_len(len: usize) -> Bits {
        Bits(vec![0; len / 64 + 1])
    }
    /// Adds `at`; false (and nothing added) when it is past the room
    /// made by [`Bits::with_len`].
    #[inline]
    pub(crate) fn set(&mut self, at: u32) -> bool {
        match self.0.get_mut(at as usize / 64) {
            Some(w) => {
                *w |= 1 << (at % 64);
                true
            }
            None => false,
        }
    }
    /// The first offset in the set at or after `from`, if below `before`
    /// (one word at a time: linear in the distance scanned, and a token
    /// is usually within one word).
    pub(crate) fn next(&self, from: u32, before: u32) -> Option<u32> {
        if from >= before {
            return None;
        }
        let last_word = ((before - 1) / 64) as usize;
        let mut word = (from / 64) as usize;
        let mut bits = *self.0.get(word)? & (!0u64 << (from % 64));
        loop {
            if bits != 0 {
                let at = word as u32 * 64 + bits.trailing_zeros();
                return (at < before).then_some(at);
            }
            if word >= last_word {
                return None;
            }
            word += 1;
            bits = *self.0.get(word)?;
        }
    }
    pub(crate) fn bytes(&self) -> usize {
        self.0.capacity() * 8
    }
}

impl Tree {
    /// The range of the leaf starting at `start`.
    pub(crate) fn leaf_range(&self, start: u32) -> TextRange {
        match self.leaf_ends.next(start, u32::MAX) {
            Some(last) => TextRange::new(start, last + 1),
            None => TextRange::empty(start),
        }
    }

    pub(crate) fn slot(&self, id: ExprId) -> Option<(u8, Slot)> {
        let index = id.index();
        Some((*self.expr_tags.get(index)?, *self.slots.get(index)?))
    }

    /// The range of any expression.
    pub(crate) fn expr_range(&self, id: ExprId) -> TextRange {
        if id.0 & LEAF != 0 {
            return self.leaf_range(id.0 & !LEAF);
        }
        self.slots
            .get(id.index())
            .map_or(TextRange::empty(0), |s| s.range)
    }

    /// Whether `id` is an error placeholder.
    pub(crate) fn is_error_expr(&self, id: ExprId) -> bool {
        id.0 & LEAF == 0
            && self
                .expr_tags
                .get(id.index())
                .is_none_or(|t| *t == tag::ERROR)
    }

    /// Whether `id` is a splat's item placeholder.
    pub(crate) fn is_splat_item(&self, id: ExprId) -> bool {
        id.0 & LEAF == 0 && self.expr_tags.get(id.index()) == Some(&tag::SPLAT_ITEM)
    }

    /// What `id` is, as the builder was given it (`text`: the source, for
    /// leaves), and its range, from one look-up: a leaf's end is found
    /// once, by one scan of `leaf_ends`, for both. A leaf string comes back
    /// as `PlainString`.
    #[inline]
    pub(crate) fn expr_node(&self, id: ExprId, text: &str) -> (ExprNodeKind, TextRange) {
        if id.0 & LEAF != 0 {
            let range = self.leaf_range(id.0 & !LEAF);
            let source = text.get(range.to_usize()).unwrap_or("");
            let kind = match source.as_bytes().first() {
                Some(b'"') => ExprNodeKind::PlainString(range),
                Some(b'0'..=b'9') => number_kind(source),
                _ => match source {
                    "true" => ExprNodeKind::Bool(true),
                    "false" => ExprNodeKind::Bool(false),
                    "null" => ExprNodeKind::Null,
                    _ => ExprNodeKind::Variable,
                },
            };
            return (kind, range);
        }
        let Some((t, slot)) = self.slot(id) else {
            return (ExprNodeKind::Error, TextRange::empty(0));
        };
        (self.slot_kind(t, slot), slot.range)
    }

    /// What the stored node with tag `t` and slot `slot` is.
    fn slot_kind(&self, t: u8, Slot { range, a, b }: Slot) -> ExprNodeKind {
        match t {
            tag::INT => ExprNodeKind::Int { lo: a, hi: b },
            tag::BIG_INT => ExprNodeKind::BigInt(a),
            tag::FRACTION => ExprNodeKind::Fraction { lo: a, hi: b },
            tag::INVALID_NUMBER => ExprNodeKind::InvalidNumber,
            tag::BOOL => ExprNodeKind::Bool(a != 0),
            tag::NULL => ExprNodeKind::Null,
            tag::TEMPLATE => ExprNodeKind::Template(a),
            tag::VARIABLE => ExprNodeKind::Variable,
            tag::TRAVERSAL => match self.traversals.get(a as usize) {
                Some(&(source, steps)) => ExprNodeKind::Traversal { source, steps },
                None => ExprNodeKind::Error,
            },
            tag::LEAF_TRAVERSAL => ExprNodeKind::Traversal {
                source: ExprId(LEAF | range.start),
                steps: Run { start: a, len: b },
            },
            tag::SPLAT => ExprNodeKind::Splat(a),
            tag::SPLAT_ITEM => ExprNodeKind::SplatItem,
            tag::CALL => ExprNodeKind::Call(a),
            tag::FOR => ExprNodeKind::For(a),
            tag::CONDITIONAL => match self.conditionals.get(a as usize) {
                Some(&[condition, then_expr, else_expr]) => ExprNodeKind::Conditional {
                    condition,
                    then_expr,
                    else_expr,
                },
                None => ExprNodeKind::Error,
            },
            tag::NEGATE | tag::NOT => ExprNodeKind::Unary {
                op: if t == tag::NEGATE {
                    UnaryOp::Negate
                } else {
                    UnaryOp::Not
                },
                op_start: b,
                operand: ExprId(a),
            },
            tag::TUPLE => ExprNodeKind::Tuple(Run { start: a, len: b }),
            tag::OBJECT => ExprNodeKind::Object(Run { start: a, len: b }),
            tag::PARENS => ExprNodeKind::Parens(ExprId(a)),
            tag::WIDE_BINARY => match self.wide_binaries.get(a as usize) {
                Some(w) => ExprNodeKind::Binary {
                    op: w.op,
                    op_start: w.op_start,
                    lhs: w.lhs,
                    rhs: w.rhs,
                },
                None => ExprNodeKind::Error,
            },
            t if t >= tag::BINARY => {
                let code = t - tag::BINARY;
                match BinaryOp::ALL.get(usize::from(code / 4)) {
                    Some(&op) => ExprNodeKind::Binary {
                        op,
                        op_start: self.expr_range(ExprId(a)).end + u32::from(code % 4),
                        lhs: ExprId(a),
                        rhs: ExprId(b),
                    },
                    None => ExprNodeKind::Error,
                }
            }
            _ => ExprNodeKind::Error,
        }
    }

    #[inline]
    /// Stores a node (its range covered already) and returns its id;
    /// `lhs_end`: where a binary node's left operand ends.
    pub(crate) fn push_expr(
        &mut self,
        kind: ExprNodeKind,
        range: TextRange,
        lhs_end: u32,
    ) -> ExprId {
        let (t, a, b) = self.encode(kind, range, lhs_end);
        let id = ExprId(self.slots.len() as u32);
        self.slots.push(Slot { range, a, b });
        self.expr_tags.push(t);
        id
    }

    #[inline]
    fn encode(&mut self, kind: ExprNodeKind, range: TextRange, lhs_end: u32) -> (u8, u32, u32) {
        match kind {
            ExprNodeKind::Int { lo, hi } => (tag::INT, lo, hi),
            ExprNodeKind::BigInt(i) => (tag::BIG_INT, i, 0),
            ExprNodeKind::Fraction { lo, hi } => (tag::FRACTION, lo, hi),
            ExprNodeKind::InvalidNumber => (tag::INVALID_NUMBER, 0, 0),
            ExprNodeKind::Bool(v) => (tag::BOOL, u32::from(v), 0),
            ExprNodeKind::Null => (tag::NULL, 0, 0),
            ExprNodeKind::Template(i) => (tag::TEMPLATE, i, 0),
            ExprNodeKind::Variable => (tag::VARIABLE, 0, 0),
            ExprNodeKind::Traversal { source, steps } if source.0 == LEAF | range.start => {
                (tag::LEAF_TRAVERSAL, steps.start, steps.len)
            }
            ExprNodeKind::Traversal { source, steps } => {
                self.traversals.push((source, steps));
                (tag::TRAVERSAL, self.traversals.len() as u32 - 1, 0)
            }
            ExprNodeKind::Splat(i) => (tag::SPLAT, i, 0),
            ExprNodeKind::SplatItem => (tag::SPLAT_ITEM, 0, 0),
            ExprNodeKind::Call(i) => (tag::CALL, i, 0),
            ExprNodeKind::For(i) => (tag::FOR, i, 0),
            ExprNodeKind::Conditional {
                condition,
                then_expr,
                else_expr,
            } => {
                self.conditionals.push([condition, then_expr, else_expr]);
                (tag::CONDITIONAL, self.conditionals.len() as u32 - 1, 0)
            }
            ExprNodeKind::Binary {
                op,
                op_start,
                lhs,
                rhs,
            } => {
                let gap = op_start.wrapping_sub(lhs_end);
                if gap <= MAX_OP_GAP {
                    (tag::BINARY + 4 * op as u8 + gap as u8, lhs.0, rhs.0)
                } else {
                    self.wide_binaries.push(WideBinary {
                        op,
                        op_start,
                        lhs,
                        rhs,
                    });
                    (tag::WIDE_BINARY, self.wide_binaries.len() as u32 - 1, 0)
                }
            }
            ExprNodeKind::Unary {
                op,
                op_start,
                operand,
            } => match op {
                UnaryOp::Negate => (tag::NEGATE, operand.0, op_start),
                UnaryOp::Not => (tag::NOT, operand.0, op_start),
            },
            ExprNodeKind::Tuple(run) => (tag::TUPLE, run.start, run.len),
            ExprNodeKind::Object(run) => (tag::OBJECT, run.start, run.len),
            ExprNodeKind::Parens(inner) => (tag::PARENS, inner.0, 0),
            // Never built (a plain string is a leaf or a template node).
            ExprNodeKind::PlainString(_) | ExprNodeKind::Error => (tag::ERROR, 0, 0),
        }
    }
}

/// A number's node kind from its source text, as the parser decoded it.
#[inline]
pub(crate) fn number_kind(text: &str) -> ExprNodeKind {
    if let Some(v) = crate::literal::small_int(text) {
        return int_kind(v);
    }
    match parse_number(text) {
        Ok(Decoded::Small(v)) => int_kind(v),
        Ok(Decoded::Int(v)) => v.to_u64().map_or(ExprNodeKind::InvalidNumber, int_kind),
        Ok(Decoded::Fraction(f)) => {
            let (lo, hi) = split(f.to_bits());
            ExprNodeKind::Fraction { lo, hi }
        }
        Ok(Decoded::Invalid) | Err(_) => ExprNodeKind::InvalidNumber,
    }
}

pub(crate) fn int_kind(v: u64) -> ExprNodeKind {
    let (lo, hi) = split(v);
    ExprNodeKind::Int { lo, hi }
}

/// The value of an `Int` node.
pub(crate) fn int_value(lo: u32, hi: u32) -> u64 {
    join(lo, hi)
}

/// Whether a decoded number can be a leaf (its value is decoded again
/// from the source on demand): anything but an integer wider than `u64`.
pub(crate) fn number_is_leaf(value: &Decoded) -> bool {
    !matches!(value, Decoded::Int(v) if v.to_u64().is_none())
}
