//! The typed AST: borrowing views of a [`Tree`].
//!
//! Every view is a `Copy` pair of the tree (with its source text) and an
//! index; reading a view never allocates. Lists of children are
//! [`List`]s. Shapes follow the HCL native syntax, simplified for walkers:
//! every postfix chain (`.name`, `[index]`, legacy `.0`) is one
//! [`ExprKind::Traversal`] with a flat list of steps, and splats are
//! [`ExprKind::Splat`] nodes whose per-element expression is rooted at
//! [`ExprKind::SplatItem`].

use std::marker::PhantomData;

use pcl_diagnostics::TextRange;

use super::*;

mod expr;
mod template;

pub use expr::*;
pub use template::*;

/// A tree and the source text its ranges point into.
#[derive(Clone, Copy)]
pub struct Src<'t> {
    pub(crate) tree: &'t Tree,
    pub(crate) text: &'t str,
}

impl<'t> Src<'t> {
    pub(crate) fn new(tree: &'t Tree, text: &'t str) -> Src<'t> {
        Src { tree, text }
    }
    pub(crate) fn slice(self, range: TextRange) -> &'t str {
        self.text.get(range.to_usize()).unwrap_or("")
    }
    pub(crate) fn text_of(self, text: Text) -> &'t str {
        match text {
            Text::Source(range) => self.slice(range),
            Text::Decoded { start, len } => {
                let start = start as usize;
                self.tree
                    .decoded
                    .get(start..start + len as usize)
                    .unwrap_or("")
            }
        }
    }
    pub(crate) fn expr(self, id: ExprId) -> ExprRef<'t> {
        ExprRef { src: self, id }
    }
    /// The whole source text.
    pub fn source(self) -> &'t str {
        self.text
    }
}

impl std::fmt::Debug for Src<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Src")
    }
}

/// A view that can be an element of a [`List`]: it knows its arena.
pub trait Element<'t>: Sized {
    #[doc(hidden)]
    fn at(src: Src<'t>, index: usize) -> Option<Self>;
}

/// A list of children: a run of one arena.
#[derive(Clone, Copy)]
pub struct List<'t, V> {
    src: Src<'t>,
    run: Run,
    _view: PhantomData<V>,
}

impl<'t, V: Element<'t>> List<'t, V> {
    pub(crate) fn new(src: Src<'t>, run: Run) -> List<'t, V> {
        List {
            src,
            run,
            _view: PhantomData,
        }
    }
    pub fn len(&self) -> usize {
        self.run.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.run.len == 0
    }
    pub fn get(&self, i: usize) -> Option<V> {
        if i < self.len() {
            V::at(self.src, self.run.start as usize + i)
        } else {
            None
        }
    }
    pub fn first(&self) -> Option<V> {
        self.get(0)
    }
    pub fn last(&self) -> Option<V> {
        self.len().checked_sub(1).and_then(|i| self.get(i))
    }
    pub fn iter(&self) -> ListIter<'t, V> {
        ListIter {
            src: self.src,
            next: self.run.start as usize,
            end: self.run.start as usize + self.run.len as usize,
            _view: PhantomData,
        }
    }
}

impl<'t, V: Element<'t>> IntoIterator for List<'t, V> {
    type Item = V;
    type IntoIter = ListIter<'t, V>;
    fn into_iter(self) -> ListIter<'t, V> {
        self.iter()
    }
}

impl<'t, V: Element<'t> + std::fmt::Debug> std::fmt::Debug for List<'t, V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Iterator over a [`List`].
#[derive(Clone)]
pub struct ListIter<'t, V> {
    src: Src<'t>,
    next: usize,
    end: usize,
    _view: PhantomData<V>,
}

impl<'t, V: Element<'t>> Iterator for ListIter<'t, V> {
    type Item = V;
    fn next(&mut self) -> Option<V> {
        while self.next < self.end {
            let i = self.next;
            self.next += 1;
            if let Some(v) = V::at(self.src, i) {
                return Some(v);
            }
        }
        None
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.end.saturating_sub(self.next);
        (n, Some(n))
    }
}

impl<'t, V: Element<'t>> DoubleEndedIterator for ListIter<'t, V> {
    fn next_back(&mut self) -> Option<V> {
        while self.end > self.next {
            self.end -= 1;
            if let Some(v) = V::at(self.src, self.end) {
                return Some(v);
            }
        }
        None
    }
}

impl<'t, V: Element<'t>> ExactSizeIterator for ListIter<'t, V> {}

// ----------------------------------------------------------------------
// Bodies, items, blocks
// ----------------------------------------------------------------------

/// A sequence of attributes and blocks: a whole file or a block's body.
#[derive(Clone, Copy, Debug)]
pub struct BodyRef<'t> {
    pub(crate) src: Src<'t>,
    pub(crate) node: BodyNode,
}

impl<'t> BodyRef<'t> {
    pub(crate) fn new(src: Src<'t>, id: BodyId) -> BodyRef<'t> {
        let node = src.tree.bodies.get(id.0 as usize);
        BodyRef {
            src,
            node: node.copied().unwrap_or(BodyNode::EMPTY),
        }
    }
    pub fn items(self) -> List<'t, ItemRef<'t>> {
        List::new(self.src, self.node.items)
    }
    pub fn range(self) -> TextRange {
        self.node.range
    }
    /// Comments inside the body that attach to no item (after the last
    /// item, or separated from the next item by a blank line).
    pub fn dangling_comments(self) -> List<'t, CommentRef<'t>> {
        List::new(self.src, self.node.dangling(self.src.tree))
    }
    /// The attributes of this body, in source order.
    pub fn attributes(self) -> impl DoubleEndedIterator<Item = AttributeRef<'t>> + Clone {
        self.items().iter().filter_map(ItemRef::as_attribute)
    }
    /// The blocks of this body, in source order.
    pub fn blocks(self) -> impl DoubleEndedIterator<Item = BlockRef<'t>> + Clone {
        self.items().iter().filter_map(ItemRef::as_block)
    }
}

/// One item of a body.
#[derive(Clone, Copy, Debug)]
pub struct ItemRef<'t> {
    src: Src<'t>,
    node: &'t ItemNode,
}

impl<'t> Element<'t> for ItemRef<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(ItemRef {
            src,
            node: src.tree.items.get(index)?,
        })
    }
}

/// What an item is.
#[derive(Clone, Copy, Debug)]
pub enum Item<'t> {
    Attribute(AttributeRef<'t>),
    Block(BlockRef<'t>),
}

impl<'t> ItemRef<'t> {
    pub fn kind(self) -> Item<'t> {
        match self.as_attribute() {
            Some(attr) => Item::Attribute(attr),
            None => match self.as_block() {
                Some(block) => Item::Block(block),
                // Unreachable: an item is one or the other.
                None => Item::Block(BlockRef {
                    item: self,
                    node: BlockNode {
                        type_name: TextRange::default(),
                        labels: Run::default(),
                        body: BodyId(u32::MAX),
                        open_brace: TextRange::default(),
                        close_brace: TextRange::default(),
                    },
                    body: BodyNode::EMPTY,
                }),
            },
        }
    }
    pub fn as_attribute(self) -> Option<AttributeRef<'t>> {
        let (name, equals, expr) = self.node.as_attribute(self.src.tree)?;
        Some(AttributeRef {
            item: self,
            name,
            equals,
            expr,
        })
    }
    pub fn as_block(self) -> Option<BlockRef<'t>> {
        let (node, body) = self.node.as_block(self.src.tree)?;
        Some(BlockRef {
            item: self,
            node,
            body,
        })
    }
    pub fn range(self) -> TextRange {
        self.node.range
    }
    pub fn leading_comments(self) -> List<'t, CommentRef<'t>> {
        List::new(self.src, self.node.leading(&self.src.tree.comments))
    }
    pub fn trailing_comments(self) -> List<'t, CommentRef<'t>> {
        List::new(self.src, self.node.trailing(&self.src.tree.comments))
    }
}

/// `name = expr`.
#[derive(Clone, Copy, Debug)]
pub struct AttributeRef<'t> {
    item: ItemRef<'t>,
    name: TextRange,
    equals: TextRange,
    expr: ExprId,
}

impl<'t> AttributeRef<'t> {
    pub fn name(self) -> &'t str {
        self.item.src.slice(self.name)
    }
    pub fn name_range(self) -> TextRange {
        self.name
    }
    pub fn ident(self) -> Ident<'t> {
        Ident::new(self.item.src, self.name)
    }
    /// The `=` token.
    pub fn equals_range(self) -> TextRange {
        self.equals
    }
    pub fn expr(self) -> ExprRef<'t> {
        self.item.src.expr(self.expr)
    }
    pub fn range(self) -> TextRange {
        self.item.node.range
    }
    pub fn item(self) -> ItemRef<'t> {
        self.item
    }
    pub fn leading_comments(self) -> List<'t, CommentRef<'t>> {
        self.item.leading_comments()
    }
    pub fn trailing_comments(self) -> List<'t, CommentRef<'t>> {
        self.item.trailing_comments()
    }
}

/// `type label* { body }`.
#[derive(Clone, Copy, Debug)]
pub struct BlockRef<'t> {
    item: ItemRef<'t>,
    node: BlockNode,
    body: BodyNode,
}

impl<'t> BlockRef<'t> {
    pub fn type_name(self) -> &'t str {
        self.item.src.slice(self.node.type_name)
    }
    pub fn type_range(self) -> TextRange {
        self.node.type_name
    }
    pub fn labels(self) -> List<'t, LabelRef<'t>> {
        List::new(self.item.src, self.node.labels)
    }
    pub fn body(self) -> BodyRef<'t> {
        BodyRef {
            src: self.item.src,
            node: self.body,
        }
    }
    pub fn open_brace_range(self) -> TextRange {
        self.node.open_brace
    }
    /// Empty (at the end of the block) when the closing brace is missing.
    pub fn close_brace_range(self) -> TextRange {
        self.node.close_brace
    }
    pub fn range(self) -> TextRange {
        self.item.node.range
    }
    pub fn item(self) -> ItemRef<'t> {
        self.item
    }
    pub fn leading_comments(self) -> List<'t, CommentRef<'t>> {
        self.item.leading_comments()
    }
    pub fn trailing_comments(self) -> List<'t, CommentRef<'t>> {
        self.item.trailing_comments()
    }
}

/// A block label: an identifier or a quoted string (escapes resolved, not
/// NFC-normalised, as HCL does for labels).
#[derive(Clone, Copy, Debug)]
pub struct LabelRef<'t> {
    src: Src<'t>,
    node: &'t LabelNode,
}

impl<'t> Element<'t> for LabelRef<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(LabelRef {
            src,
            node: src.tree.labels.get(index)?,
        })
    }
}

impl<'t> LabelRef<'t> {
    pub fn value(self) -> &'t str {
        self.src.text_of(self.node.value)
    }
    pub fn quoted(self) -> bool {
        self.node.quoted
    }
    pub fn range(self) -> TextRange {
        self.node.range
    }
}

/// A comment attached to a body item or dangling in a body.
#[derive(Clone, Copy, Debug)]
pub struct CommentRef<'t> {
    src: Src<'t>,
    node: &'t CommentNode,
}

impl<'t> Element<'t> for CommentRef<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(CommentRef {
            src,
            node: src.tree.comments.nodes.get(index)?,
        })
    }
}

impl<'t> CommentRef<'t> {
    pub fn kind(self) -> CommentKind {
        self.node.kind
    }
    /// The raw comment, delimiters included, without its line break.
    pub fn text(self) -> &'t str {
        self.src.slice(self.node.range)
    }
    pub fn range(self) -> TextRange {
        self.node.range
    }
    /// The comment text with its delimiters (`#`, `//`, `/*`, `*/`) removed.
    pub fn content(self) -> &'t str {
        let text = self.text();
        match self.node.kind {
            CommentKind::Hash => text.strip_prefix('#').unwrap_or(text),
            CommentKind::DoubleSlash => text.strip_prefix("//").unwrap_or(text),
            CommentKind::Block => {
                let inner = text.strip_prefix("/*").unwrap_or(text);
                inner.strip_suffix("*/").unwrap_or(inner)
            }
        }
    }
}

/// An identifier: its source text (not normalised) and range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ident<'t> {
    pub name: &'t str,
    pub range: TextRange,
}

impl<'t> Ident<'t> {
    pub(crate) fn new(src: Src<'t>, range: TextRange) -> Ident<'t> {
        Ident {
            name: src.slice(range),
            range,
        }
    }
}

impl<'t> Element<'t> for Ident<'t> {
    fn at(src: Src<'t>, index: usize) -> Option<Self> {
        Some(Ident::new(src, *src.tree.idents.get(index)?))
    }
}
