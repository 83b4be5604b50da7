//! Body items, bodies and their comments, stored compactly.
//!
//! An item is 24 bytes: its range, a tag and three words. The common
//! forms keep everything in those words:
//!
//! * an attribute whose name starts the item and whose `=` is one byte
//!   at most 64 KiB in: the name's length and the `=`'s offset (16 bits
//!   each), the value;
//! * a block with no labels whose type name starts the item, whose `{` is
//!   the byte before its body and whose `}` the byte after it, ending the
//!   item: the type name's end and the body;
//! * such a block whose body is empty (no items, no comments): the type
//!   name's end and the `{`'s offset; its body is not stored at all (the
//!   builder takes it back off the body arena).
//!
//! Any other item keeps its details in a side arena (`attr_extras`, or a
//! whole [`BlockNode`] in `blocks`). Which form an item takes is decided
//! by decoding the compact form and comparing it with what the parser
//! built, so the two forms cannot disagree.
//!
//! Most items have no comments: an item's leading and trailing comment
//! runs, and a body's dangling one, are an index into [`Comments::runs`]
//! (or [`NONE`]), not two runs each. A body is 20 bytes.

use pcl_diagnostics::TextRange;

use super::{BlockNode, BodyId, CommentNode, ExprId, Run, Tree};

/// No entry in a side arena.
const NONE: u32 = u32::MAX;

/// The comments of a tree: the comment nodes, and the runs of them
/// attached to items and bodies.
#[derive(Clone, Debug, Default)]
pub(crate) struct Comments {
    pub(crate) nodes: Vec<CommentNode>,
    /// An item's leading run, followed by its trailing run; a body's
    /// dangling run.
    pub(crate) runs: Vec<Run>,
}

impl Comments {
    fn run(&self, index: u32) -> Run {
        match index {
            NONE => Run::default(),
            i => self.runs.get(i as usize).copied().unwrap_or_default(),
        }
    }

    /// Appends `runs` unless they are all empty; their index, or [`NONE`].
    fn add(&mut self, runs: &[Run]) -> u32 {
        if runs.iter().all(|r| r.len == 0) {
            return NONE;
        }
        let index = self.runs.len() as u32;
        self.runs.extend_from_slice(runs);
        index
    }
}

/// A sequence of items: a file's, or a block's between its braces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BodyNode {
    pub(crate) items: Run,
    pub(crate) range: TextRange,
    /// The dangling comments' index in [`Comments::runs`], or [`NONE`].
    dangling: u32,
}

impl BodyNode {
    /// A body with no items and no comments.
    pub(crate) const EMPTY: BodyNode = BodyNode {
        items: Run { start: 0, len: 0 },
        range: TextRange { start: 0, end: 0 },
        dangling: NONE,
    };

    pub(crate) fn new(tree: &mut Tree, items: Run, range: TextRange, dangling: Run) -> BodyNode {
        BodyNode {
            items,
            range,
            dangling: tree.comments.add(&[dangling]),
        }
    }

    pub(crate) fn dangling(&self, tree: &Tree) -> Run {
        tree.comments.run(self.dangling)
    }
}

/// One body item (24 bytes; see the module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ItemNode {
    pub(crate) range: TextRange,
    /// `Attr`: the name's length and the `=`'s offset from the item's
    /// start, 16 bits each; `WideAttr`: an index into `attr_extras`;
    /// `Block`, `EmptyBlock`: the type name's end; `WideBlock`: an index
    /// into `blocks`.
    a: u32,
    /// Attributes: the value; `Block`, `WideBlock`: the body;
    /// `EmptyBlock`: where the `{` is.
    b: u32,
    /// The leading comments' index in [`Comments::runs`] (the trailing
    /// ones follow them), or [`NONE`].
    comments: u32,
    tag: ItemTag,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum ItemTag {
    Attr,
    WideAttr,
    Block,
    EmptyBlock,
    WideBlock,
}

/// What an item is, decoded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ItemNodeKind {
    Attribute {
        name: TextRange,
        equals: TextRange,
        expr: ExprId,
    },
    /// The block and its body (`BodyId(NONE)` for a body not stored).
    Block(BlockNode, BodyNode),
}

impl ItemNode {
    /// An attribute item; `comments` are its leading and trailing runs.
    pub(crate) fn attribute(
        tree: &mut Tree,
        name: TextRange,
        equals: TextRange,
        expr: ExprId,
        range: TextRange,
        comments: (Run, Run),
    ) -> ItemNode {
        let comments = tree.comments.add(&[comments.0, comments.1]);
        let offset = |at: u32| {
            at.checked_sub(range.start)
                .and_then(|d| u16::try_from(d).ok())
        };
        let compact = match (offset(name.end), offset(equals.start)) {
            (Some(len), Some(eq)) => Some(ItemNode {
                range,
                a: u32::from(len) | (u32::from(eq) << 16),
                b: expr.0,
                comments,
                tag: ItemTag::Attr,
            }),
            _ => None,
        };
        let wanted = ItemNodeKind::Attribute { name, equals, expr };
        if let Some(item) = compact.filter(|item| item.kind(tree) == wanted) {
            return item;
        }
        let index = tree.attr_extras.len() as u32;
        tree.attr_extras.push([name, equals]);
        ItemNode {
            range,
            a: index,
            b: expr.0,
            comments,
            tag: ItemTag::WideAttr,
        }
    }

    /// A block item; `comments` are its leading and trailing runs. An
    /// empty body that is the last one built is taken back off the body
    /// arena when the item can stand for it.
    pub(crate) fn block(
        tree: &mut Tree,
        node: BlockNode,
        range: TextRange,
        comments: (Run, Run),
    ) -> ItemNode {
        let comments = tree.comments.add(&[comments.0, comments.1]);
        let mut wanted = node;
        if wanted.labels.len == 0 {
            wanted.labels = Run::default();
        }
        let body = tree.bodies.get(node.body.0 as usize).copied();
        let is_last = node.body.0 as usize + 1 == tree.bodies.len();
        let mut compact = ItemNode {
            range,
            a: node.type_name.end,
            b: node.open_brace.start,
            comments,
            tag: ItemTag::EmptyBlock,
        };
        if let (Some(body), true) = (body, is_last) {
            let kind = compact.kind(tree);
            let stored = BlockNode {
                body: BodyId(NONE),
                ..wanted
            };
            if kind == ItemNodeKind::Block(stored, body) {
                tree.bodies.pop();
                return compact;
            }
        }
        compact.tag = ItemTag::Block;
        compact.b = node.body.0;
        if let Some(body) = body {
            if compact.kind(tree) == ItemNodeKind::Block(wanted, body) {
                return compact;
            }
        }
        let index = tree.blocks.len() as u32;
        tree.blocks.push(node);
        ItemNode {
            range,
            a: index,
            b: node.body.0,
            comments,
            tag: ItemTag::WideBlock,
        }
    }

    /// What the item is, as the builder was given it.
    pub(crate) fn kind(&self, tree: &Tree) -> ItemNodeKind {
        let start = self.range.start;
        match self.tag {
            ItemTag::Attr => {
                let name_end = start.saturating_add(self.a & 0xffff);
                let equals = start.saturating_add(self.a >> 16);
                ItemNodeKind::Attribute {
                    name: TextRange::new(start, name_end),
                    equals: TextRange::new(equals, equals.saturating_add(1)),
                    expr: ExprId(self.b),
                }
            }
            ItemTag::WideAttr => {
                let [name, equals] = tree
                    .attr_extras
                    .get(self.a as usize)
                    .copied()
                    .unwrap_or_default();
                ItemNodeKind::Attribute {
                    name,
                    equals,
                    expr: ExprId(self.b),
                }
            }
            ItemTag::Block => {
                let body = BodyId(self.b);
                let node = tree
                    .bodies
                    .get(body.0 as usize)
                    .copied()
                    .unwrap_or(BodyNode::EMPTY);
                let inner = node.range;
                let block = BlockNode {
                    type_name: TextRange::new(start, self.a),
                    labels: Run::default(),
                    body,
                    open_brace: TextRange::new(inner.start.saturating_sub(1), inner.start),
                    close_brace: TextRange::new(inner.end, self.range.end),
                };
                ItemNodeKind::Block(block, node)
            }
            ItemTag::EmptyBlock => {
                let open = TextRange::new(self.b, self.b.saturating_add(1));
                let close = TextRange::new(self.range.end.saturating_sub(1), self.range.end);
                let block = BlockNode {
                    type_name: TextRange::new(start, self.a),
                    labels: Run::default(),
                    body: BodyId(NONE),
                    open_brace: open,
                    close_brace: close,
                };
                let body = BodyNode {
                    range: TextRange::new(open.end, close.start),
                    ..BodyNode::EMPTY
                };
                ItemNodeKind::Block(block, body)
            }
            ItemTag::WideBlock => {
                let block = tree
                    .blocks
                    .get(self.a as usize)
                    .copied()
                    .unwrap_or(BlockNode {
                        type_name: TextRange::default(),
                        labels: Run::default(),
                        body: BodyId(NONE),
                        open_brace: TextRange::default(),
                        close_brace: TextRange::default(),
                    });
                let body = tree
                    .bodies
                    .get(block.body.0 as usize)
                    .copied()
                    .unwrap_or(BodyNode::EMPTY);
                ItemNodeKind::Block(block, body)
            }
        }
    }

    pub(crate) fn leading(&self, comments: &Comments) -> Run {
        comments.run(self.comments)
    }

    pub(crate) fn trailing(&self, comments: &Comments) -> Run {
        match self.comments {
            NONE => Run::default(),
            i => comments.run(i.saturating_add(1)),
        }
    }
}
