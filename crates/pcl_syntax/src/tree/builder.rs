//! Building a [`Tree`]: the one list mechanism and the node constructors.
//!
//! Nodes are appended bottom-up: a node's children exist before it. A list
//! under construction (a body's items, a call's arguments, a template's
//! parts, …) pushes its elements onto the scratch stack of their type,
//! above whatever the enclosing lists have pushed; [`Builder::finish`]
//! moves the run above a [`Mark`] into the arena, so every list is one
//! contiguous run, written once. A nested list finishes before the
//! enclosing one pushes again, so each run is exactly one list. A list
//! given up on is dropped from its stack (`discard_*`); nodes a rewound
//! parser built stay in the arenas, unreferenced.

use num_bigint::BigInt;
use num_traits::ToPrimitive;
use pcl_diagnostics::TextRange;

use super::store;
use super::*;

/// The scratch length at the start of a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark(u32);

/// A number's value as the lexer decoded it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NumberLit {
    /// An integer that fits in a `u64` (no `BigInt` allocated).
    Small(u64),
    Int(BigInt),
    Fraction(f64),
    Invalid,
}

/// Per-type scratch stacks for lists under construction.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    pub(crate) exprs: Vec<ExprId>,
    pub(crate) steps: Vec<StepNode>,
    pub(crate) object_items: Vec<ObjectItemNode>,
    pub(crate) parts: Vec<StoredPart>,
    pub(crate) idents: Vec<TextRange>,
    pub(crate) items: Vec<ItemNode>,
    pub(crate) labels: Vec<LabelNode>,
    pub(crate) comments: Vec<CommentNode>,
}

/// Builds one [`Tree`].
#[derive(Debug, Default)]
pub struct Builder {
    pub(crate) tree: Tree,
    pub(crate) scratch: Scratch,
    /// The end of the last leaf made (see [`Builder::leaf`]).
    leaves_end: u32,
    /// The last two leaves made, with their ranges: a node's children are
    /// usually among them, and a leaf's range is otherwise a scan of the
    /// end bits.
    recent: [(u32, u32); 2],
}

/// Inputs under this many bytes reserve less (see [`Builder::for_source`]).
const SMALL_SOURCE: usize = 64 * 1024;

/// Trees with fewer expression nodes are not shrunk (see
/// [`Builder::finish`]).
const SHRINK_FROM: usize = 4096;

/// Moves `scratch[mark..]` to the end of `arena`: the one list helper.
///
/// A run that is the whole scratch stack going into an empty arena (the
/// one big list of a dense file: `[1,1,…]`, a long call) is handed over
/// instead of copied, so the peak never holds it twice.
/// Runs are copied (their nodes are `Copy`), and an empty run (most
/// items' comments) touches neither vector.
fn finish_run<T: Copy>(scratch: &mut Vec<T>, arena: &mut Vec<T>, mark: Mark) -> Run {
    let from = (mark.0 as usize).min(scratch.len());
    let start = arena.len() as u32;
    if from == scratch.len() {
        return Run { start, len: 0 };
    }
    if from == 0 && arena.is_empty() {
        std::mem::swap(scratch, arena);
    } else {
        arena.extend_from_slice(scratch.get(from..).unwrap_or_default());
        scratch.truncate(from);
    }
    Run {
        start,
        len: arena.len() as u32 - start,
    }
}

macro_rules! lists {
    ($($field:ident -> $arena:ident: $ty:ty => $mark:ident, $push:ident, $finish:ident, $discard:ident;)*) => {
        impl Builder {
            $(
                pub(crate) fn $mark(&self) -> Mark {
                    Mark(self.scratch.$field.len() as u32)
                }
                pub(crate) fn $push(&mut self, value: $ty) {
                    self.scratch.$field.push(value);
                }
                pub(crate) fn $finish(&mut self, mark: Mark) -> Run {
                    finish_run(&mut self.scratch.$field, &mut self.tree.$arena, mark)
                }
                /// Drops the run above `mark` (a list given up on).
                #[allow(dead_code)]
                pub(crate) fn $discard(&mut self, mark: Mark) {
                    self.scratch.$field.truncate(mark.0 as usize);
                }
            )*
        }
    };
}

lists! {
    exprs -> expr_lists: ExprId => mark_exprs, push_list_expr, finish_exprs, discard_exprs;
    steps -> steps: StepNode => mark_steps, push_step, finish_steps, discard_steps;
    object_items -> object_items: ObjectItemNode => mark_object_items, push_object_item, finish_object_items, discard_object_items;
    idents -> idents: TextRange => mark_idents, push_ident, finish_idents, discard_idents;
    items -> items: ItemNode => mark_items, push_item, finish_items, discard_items;
    labels -> labels: LabelNode => mark_labels, push_label, finish_labels, discard_labels;
}

impl Builder {
    pub(crate) fn mark_parts(&self) -> Mark {
        Mark(self.scratch.parts.len() as u32)
    }
    pub(crate) fn push_part(&mut self, value: PartNode) {
        let part = StoredPart::new(&mut self.tree, value);
        self.scratch.parts.push(part);
    }
    pub(crate) fn finish_parts(&mut self, mark: Mark) -> Run {
        finish_run(&mut self.scratch.parts, &mut self.tree.parts, mark)
    }
    pub(crate) fn mark_comments(&self) -> Mark {
        Mark(self.scratch.comments.len() as u32)
    }
    pub(crate) fn push_comment(&mut self, value: CommentNode) {
        self.scratch.comments.push(value);
    }
    pub(crate) fn finish_comments(&mut self, mark: Mark) -> Run {
        finish_run(
            &mut self.scratch.comments,
            &mut self.tree.comments.nodes,
            mark,
        )
    }
}

impl Builder {
    /// A builder sized for a source of `len` bytes with `significant`
    /// significant tokens. Almost every expression node owns a significant
    /// token, so the expression arena is reserved for that many up front
    /// (never fewer than the measured density of real programs): growing
    /// it by doubling would copy it, and hold both copies, at every step.
    /// The unused tail is never touched (so never resident) and is given
    /// back by [`Builder::finish`].
    pub(crate) fn for_source(len: usize, significant: usize) -> Builder {
        let mut b = Builder::default();
        // A small input (most files of a program) reserves for one node
        // per three significant tokens: reserving and touching more costs
        // more than growing the few that need it.
        let nodes = if len < SMALL_SOURCE {
            significant / 3
        } else {
            significant.max(len / 12)
        };
        b.tree.slots.reserve(nodes);
        b.tree.expr_tags.reserve(nodes);
        b.tree.leaf_ends = Bits::with_len(len);
        b
    }

    pub(crate) fn finish(mut self) -> Tree {
        let tree = &mut self.tree;
        // A small tree keeps its spare capacity: shrinking is a copy, and
        // what it gives back is small.
        if tree.slots.len() < SHRINK_FROM {
            return self.tree;
        }
        tree.slots.shrink_to_fit();
        tree.expr_tags.shrink_to_fit();
        tree.expr_lists.shrink_to_fit();
        tree.steps.shrink_to_fit();
        tree.object_items.shrink_to_fit();
        tree.parts.shrink_to_fit();
        tree.items.shrink_to_fit();
        self.tree
    }

    // ------------------------------------------------------------------
    // Texts
    // ------------------------------------------------------------------

    /// `value` as a text: the source bytes at `range` when they are
    /// `value`, else a copy in the side buffer.
    pub(crate) fn text(&mut self, source: &str, range: TextRange, value: &str) -> Text {
        if source.get(range.to_usize()) == Some(value) {
            Text::Source(range)
        } else {
            let start = self.tree.decoded.len() as u32;
            self.tree.decoded.push_str(value);
            Text::Decoded {
                start,
                len: value.len() as u32,
            }
        }
    }

    // ------------------------------------------------------------------
    // Expressions
    // ------------------------------------------------------------------

    /// The range of a node built already.
    pub(crate) fn expr_range(&self, id: ExprId) -> TextRange {
        if id.0 & LEAF != 0 {
            return self.leaf_range(id.0);
        }
        self.tree.expr_range(id)
    }

    #[inline]
    fn leaf_range(&self, id: u32) -> TextRange {
        let start = id & !LEAF;
        match self.recent {
            [(newest, end), _] if newest == id => TextRange { start, end },
            [_, (older, end)] if older == id => TextRange { start, end },
            _ => self.tree.leaf_range(start),
        }
    }

    /// Whether a node built already is an error placeholder.
    pub(crate) fn is_error(&self, id: ExprId) -> bool {
        self.tree.is_error_expr(id)
    }

    #[inline]
    fn range_of(&self, id: ExprId) -> Option<TextRange> {
        if id.0 & LEAF != 0 {
            return Some(self.leaf_range(id.0));
        }
        let slot = self.tree.slots.get(id.index())?;
        // The splat item has the range of its splat's marker, which must
        // not widen the nodes built over it.
        (!self.tree.is_splat_item(id)).then_some(slot.range)
    }

    /// The id of a one-token expression at `range`, not stored (see
    /// `store.rs`), or `None` when it must be stored: it is empty, starts
    /// at or past 2 GiB, or would make another leaf's end ambiguous. A
    /// leaf's end is the first end bit at or after its start, so none may
    /// lie inside it, and its own end bit must not land inside an earlier
    /// leaf: it is new and after every leaf made so far (the parser makes
    /// them in source order), or it is set already (the same token made
    /// again after a rewind).
    #[inline]
    pub(crate) fn leaf(&mut self, range: TextRange) -> Option<ExprId> {
        let (start, end) = (range.start, range.end);
        if start >= end || end > LEAF {
            return None;
        }
        let last = end - 1;
        if start >= self.leaves_end {
            // No end bit lies at or after `start` yet.
            if !self.tree.leaf_ends.set(last) {
                return None;
            }
            self.leaves_end = end;
        } else if self.tree.leaf_ends.next(start, end) != Some(last) {
            return None;
        }
        let id = LEAF | start;
        let [newest, _] = self.recent;
        self.recent = [(id, end), newest];
        Some(ExprId(id))
    }

    #[inline]
    fn cover(&self, range: TextRange, id: ExprId) -> TextRange {
        match self.range_of(id) {
            Some(r) => TextRange::new(range.start.min(r.start), range.end.max(r.end)),
            None => range,
        }
    }

    fn cover_run<T>(
        &self,
        range: TextRange,
        list: &[T],
        each: impl Fn(&T) -> TextRange,
    ) -> TextRange {
        list.iter().fold(range, |acc, x| {
            let r = each(x);
            TextRange::new(acc.start.min(r.start), acc.end.max(r.end))
        })
    }

    /// Appends an expression node. Its range is widened to cover its
    /// direct children (error recovery may leave a child past the end the
    /// parser computed), so every node's range contains its children's.
    #[inline]
    pub(crate) fn expr(&mut self, kind: ExprNodeKind, range: TextRange) -> ExprId {
        if matches!(
            kind,
            ExprNodeKind::Variable | ExprNodeKind::Bool(_) | ExprNodeKind::Null
        ) {
            // No children: the range is covered already.
            if let Some(id) = self.leaf(range) {
                return id;
            }
        }
        self.stored_expr(kind, range)
    }

    /// [`Builder::expr`] for a node that is stored.
    #[inline(never)]
    fn stored_expr(&mut self, kind: ExprNodeKind, range: TextRange) -> ExprId {
        let range = self.covered(kind, range);
        let lhs_end = match kind {
            ExprNodeKind::Binary { lhs, .. } => self.expr_range(lhs).end,
            _ => 0,
        };
        self.tree.push_expr(kind, range, lhs_end)
    }

    fn covered(&self, kind: ExprNodeKind, range: TextRange) -> TextRange {
        let t = &self.tree;
        let widen =
            |a: TextRange, b: TextRange| TextRange::new(a.start.min(b.start), a.end.max(b.end));
        match kind {
            ExprNodeKind::Int { .. }
            | ExprNodeKind::BigInt(_)
            | ExprNodeKind::Fraction { .. }
            | ExprNodeKind::InvalidNumber
            | ExprNodeKind::Bool(_)
            | ExprNodeKind::Null
            | ExprNodeKind::Variable
            | ExprNodeKind::SplatItem
            | ExprNodeKind::PlainString(_)
            | ExprNodeKind::Error => range,
            ExprNodeKind::Template(i) => match t.templates.get(i as usize) {
                Some(node) => self.cover_run(range, slice(&t.parts, node.parts), |p| p.range),
                None => range,
            },
            ExprNodeKind::Traversal { source, steps } => {
                self.cover_run(self.cover(range, source), slice(&t.steps, steps), |s| {
                    s.range
                })
            }
            ExprNodeKind::Splat(i) => match t.splats.get(i as usize) {
                Some(s) => self.cover(widen(self.cover(range, s.source), s.marker), s.each),
                None => range,
            },
            ExprNodeKind::Call(i) => match t.calls.get(i as usize) {
                Some(c) => slice(&t.expr_lists, c.args)
                    .iter()
                    .fold(widen(range, c.name_range), |acc, &arg| self.cover(acc, arg)),
                None => range,
            },
            ExprNodeKind::For(i) => match t.fors.get(i as usize) {
                Some(f) => {
                    let mut r = self.cover(range, f.collection);
                    if let Some(k) = f.key_expr {
                        r = self.cover(r, k);
                    }
                    r = self.cover(r, f.value_expr);
                    if let Some(c) = f.condition {
                        r = self.cover(r, c);
                    }
                    r
                }
                None => range,
            },
            ExprNodeKind::Conditional {
                condition,
                then_expr,
                else_expr,
            } => self.cover(
                self.cover(self.cover(range, condition), then_expr),
                else_expr,
            ),
            ExprNodeKind::Binary {
                op,
                op_start,
                lhs,
                rhs,
            } => {
                let op_range = TextRange::new(op_start, op_start + op.as_str().len() as u32);
                self.cover(widen(self.cover(range, lhs), op_range), rhs)
            }
            ExprNodeKind::Unary {
                op_start, operand, ..
            } => self.cover(
                widen(range, TextRange::new(op_start, op_start + 1)),
                operand,
            ),
            ExprNodeKind::Tuple(run) => slice(&t.expr_lists, run)
                .iter()
                .fold(range, |acc, &e| self.cover(acc, e)),
            ExprNodeKind::Object(run) => {
                self.cover_run(range, slice(&t.object_items, run), |i| i.range)
            }
            ExprNodeKind::Parens(inner) => self.cover(range, inner),
        }
    }

    pub(crate) fn number(&mut self, value: NumberLit, range: TextRange) -> ExprId {
        if store::number_is_leaf(&value) {
            if let Some(id) = self.leaf(range) {
                return id;
            }
        }
        let kind = match value {
            NumberLit::Small(small) => ExprNodeKind::Int {
                lo: small as u32,
                hi: (small >> 32) as u32,
            },
            NumberLit::Int(v) => match v.to_u64() {
                Some(small) => ExprNodeKind::Int {
                    lo: small as u32,
                    hi: (small >> 32) as u32,
                },
                None => {
                    let index = self.tree.bigs.len() as u32;
                    self.tree.bigs.push(v);
                    ExprNodeKind::BigInt(index)
                }
            },
            NumberLit::Fraction(f) => {
                let bits = f.to_bits();
                ExprNodeKind::Fraction {
                    lo: bits as u32,
                    hi: (bits >> 32) as u32,
                }
            }
            NumberLit::Invalid => ExprNodeKind::InvalidNumber,
        };
        self.expr(kind, range)
    }

    pub(crate) fn legacy_index_step(
        &mut self,
        digits: TextRange,
        value: BigInt,
        range: TextRange,
    ) -> StepNode {
        let index = self.tree.bigs.len() as u32;
        self.tree.bigs.push(value);
        self.step(
            StepNodeKind::LegacyIndex {
                digits,
                value: index,
            },
            range,
        )
    }

    /// A step, its range widened over an index expression.
    #[inline]
    pub(crate) fn step(&mut self, kind: StepNodeKind, range: TextRange) -> StepNode {
        let mut extra = |value| {
            self.tree.step_extras.push(value);
            self.tree.step_extras.len() as u32 - 1
        };
        let (tag, a, range) = match kind {
            StepNodeKind::Attr(name) if name.end == range.end && name.start >= range.start => {
                (StepTag::Attr, name.start, range)
            }
            StepNodeKind::Attr(name) => (StepTag::WideAttr, extra((name, 0)), range),
            StepNodeKind::LegacyIndex { digits, value } => {
                (StepTag::LegacyIndex, extra((digits, value)), range)
            }
            StepNodeKind::Index(e) => (StepTag::Index, e.0, self.cover(range, e)),
        };
        StepNode { range, a, tag }
    }

    #[inline]
    pub(crate) fn object_item(
        &self,
        key: ExprId,
        value: ExprId,
        range: TextRange,
    ) -> ObjectItemNode {
        ObjectItemNode {
            key,
            value,
            range: self.cover(self.cover(range, key), value),
        }
    }

    pub(crate) fn template(
        &mut self,
        kind: TemplateNodeKind,
        parts: Run,
        range: TextRange,
    ) -> ExprId {
        if let Some(id) = self.plain_string(kind, parts, range) {
            return id;
        }
        let index = self.tree.templates.len() as u32;
        self.tree.templates.push(TemplateNode { kind, parts });
        self.expr(ExprNodeKind::Template(index), range)
    }

    /// A quoted string that is a leaf (see `store.rs`): no parts and at
    /// most two bytes (`""`, or an unclosed `"`), or one literal part whose
    /// text is its source, between the first byte and the last. The view
    /// makes those parts again from the range alone.
    fn plain_string(
        &mut self,
        kind: TemplateNodeKind,
        parts: Run,
        range: TextRange,
    ) -> Option<ExprId> {
        if kind != TemplateNodeKind::Quoted || parts.len > 1 {
            return None;
        }
        let range = self.cover_run(range, slice(&self.tree.parts, parts), |p| p.range);
        let inner = (range.len() > 2).then(|| TextRange::new(range.start + 1, range.end - 1));
        let plain = match (slice(&self.tree.parts, parts), inner) {
            ([], None) => true,
            ([part], Some(inner)) => {
                let part = part.get(&self.tree);
                part.range == inner && part.kind == PartNodeKind::Literal(Text::Source(inner))
            }
            _ => false,
        };
        if !plain {
            return None;
        }
        let id = self.leaf(range)?;
        if parts.len == 1 && parts.start as usize + 1 == self.tree.parts.len() {
            self.tree.parts.pop();
        }
        Some(id)
    }

    /// A template node not wrapped in an expression (a bare template).
    pub(crate) fn bare_template(&mut self, parts: Run) -> u32 {
        let index = self.tree.templates.len() as u32;
        self.tree.templates.push(TemplateNode {
            kind: TemplateNodeKind::Bare,
            parts,
        });
        index
    }

    pub(crate) fn call(&mut self, node: CallNode, range: TextRange) -> ExprId {
        let index = self.tree.calls.len() as u32;
        self.tree.calls.push(node);
        self.expr(ExprNodeKind::Call(index), range)
    }

    pub(crate) fn for_expr(&mut self, node: ForNode, range: TextRange) -> ExprId {
        let index = self.tree.fors.len() as u32;
        self.tree.fors.push(node);
        self.expr(ExprNodeKind::For(index), range)
    }

    pub(crate) fn splat(&mut self, node: SplatNode, range: TextRange) -> ExprId {
        let index = self.tree.splats.len() as u32;
        self.tree.splats.push(node);
        self.expr(ExprNodeKind::Splat(index), range)
    }

    // ------------------------------------------------------------------
    // Template parts
    // ------------------------------------------------------------------

    pub(crate) fn interpolation(&self, expr: ExprId, strip: Strip, range: TextRange) -> PartNode {
        PartNode {
            kind: PartNodeKind::Interpolation { expr, strip },
            range: self.cover(range, expr),
        }
    }

    pub(crate) fn template_if(&mut self, node: TemplateIfNode, range: TextRange) -> PartNode {
        let t = &self.tree;
        let mut r = self.cover(range, node.condition);
        r = self.cover_run(r, slice(&t.parts, node.then_parts), |p| p.range);
        if let Some(else_parts) = node.else_parts {
            r = self.cover_run(r, slice(&t.parts, else_parts), |p| p.range);
        }
        let index = self.tree.template_ifs.len() as u32;
        self.tree.template_ifs.push(node);
        PartNode {
            kind: PartNodeKind::If(index),
            range: r,
        }
    }

    pub(crate) fn template_for(&mut self, node: TemplateForNode, range: TextRange) -> PartNode {
        let t = &self.tree;
        let r = self.cover_run(
            self.cover(range, node.collection),
            slice(&t.parts, node.body),
            |p| p.range,
        );
        let index = self.tree.template_fors.len() as u32;
        self.tree.template_fors.push(node);
        PartNode {
            kind: PartNodeKind::For(index),
            range: r,
        }
    }

    // ------------------------------------------------------------------
    // Bodies
    // ------------------------------------------------------------------

    pub(crate) fn body(&mut self, items: Run, range: TextRange, dangling: Run) -> BodyId {
        let range = self.cover_run(range, slice(&self.tree.items, items), |i| i.range);
        let id = BodyId(self.tree.bodies.len() as u32);
        let node = BodyNode::new(&mut self.tree, items, range, dangling);
        self.tree.bodies.push(node);
        id
    }

    pub(crate) fn attribute(
        &mut self,
        name: TextRange,
        equals: TextRange,
        expr: ExprId,
        range: TextRange,
        comments: (Run, Run),
    ) -> ItemNode {
        let widen =
            |a: TextRange, b: TextRange| TextRange::new(a.start.min(b.start), a.end.max(b.end));
        let range = self.cover(widen(widen(range, name), equals), expr);
        ItemNode::attribute(&mut self.tree, name, equals, expr, range, comments)
    }

    pub(crate) fn block(
        &mut self,
        node: BlockNode,
        range: TextRange,
        comments: (Run, Run),
    ) -> ItemNode {
        let widen =
            |a: TextRange, b: TextRange| TextRange::new(a.start.min(b.start), a.end.max(b.end));
        let t = &self.tree;
        let mut r = self.cover_run(
            widen(range, node.type_name),
            slice(&t.labels, node.labels),
            |l| l.range,
        );
        if let Some(body) = t.bodies.get(node.body.0 as usize) {
            r = widen(r, body.range);
        }
        r = widen(widen(r, node.open_brace), node.close_brace);
        ItemNode::block(&mut self.tree, node, r, comments)
    }
}

impl Builder {
    /// Appends a list of items built outside the scratch stack (the top
    /// level's, which grow with the file) as one run.
    /// Into an empty arena the list is moved, not copied.
    pub(crate) fn items_run(&mut self, items: Vec<ItemNode>) -> Run {
        let start = self.tree.items.len() as u32;
        if self.tree.items.is_empty() {
            self.tree.items = items;
        } else {
            self.tree.items.extend(items);
        }
        Run {
            start,
            len: self.tree.items.len() as u32 - start,
        }
    }

    /// The items of a body built already.
    pub(crate) fn body_items(&self, body: BodyId) -> Run {
        self.tree
            .bodies
            .get(body.0 as usize)
            .map_or(Run::default(), |b| b.items)
    }
}

/// The elements of `run` in `arena` (empty when out of bounds).
pub(crate) fn slice<T>(arena: &[T], run: Run) -> &[T] {
    arena.get(run.range()).unwrap_or(&[])
}
