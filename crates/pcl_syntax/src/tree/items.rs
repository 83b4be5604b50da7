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
//! whole [`BlockNode`] in `blocks`). A debug build checks that every
//! compact item decodes to what the parser built.
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

/// What a block item that cannot be read reads as.
const NO_BLOCK: (BlockNode, BodyNode) = (
    BlockNode {
        type_name: TextRange { start: 0, end: 0 },
        labels: Run { start: 0, len: 0 },
        body: BodyId(NONE),
        open_brace: TextRange { start: 0, end: 0 },
        close_brace: TextRange { start: 0, end: 0 },
    },
    BodyNode::EMPTY,
);

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
        let start = range.start;
        let name_len = u16::try_from(name.end.wrapping_sub(start)).ok();
        let equals_at = equals.start.checked_sub(start);
        let equals_at = equals_at.and_then(|d| u16::try_from(d).ok());
        if let (true, true, Some(len), Some(eq)) = (
            name.start == start && name.end >= start,
            equals.end == equals.start.wrapping_add(1),
            name_len,
            equals_at,
        ) {
            let item = ItemNode {
                range,
                a: u32::from(len) | (u32::from(eq) << 16),
                b: expr.0,
                comments,
                tag: ItemTag::Attr,
            };
            debug_assert_eq!(
                item.kind(tree),
                ItemNodeKind::Attribute { name, equals, expr }
            );
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
        let body = tree.bodies.get(node.body.0 as usize).copied();
        let open = node.open_brace;
        // What the compact forms can say: no labels, the type name first
        // and a one-byte `{`.
        let plain = node.labels.len == 0
            && node.type_name.start == range.start
            && open.end == open.start.wrapping_add(1);
        let mut item = ItemNode {
            range,
            a: node.type_name.end,
            b: node.body.0,
            comments,
            tag: ItemTag::Block,
        };
        if let (Some(body), true) = (body, plain) {
            // The body sits between the braces, and the `}` ends the item.
            let between = open.end == body.range.start
                && node.close_brace == TextRange::new(body.range.end, range.end);
            // An empty body, last built: the braces say all about it.
            let close = TextRange::new(range.end.saturating_sub(1), range.end);
            let empty = node.body.0 as usize + 1 == tree.bodies.len()
                && body.items.len == 0
                && body.dangling == NONE
                && node.close_brace == close
                && close.len() == 1
                && body.range == TextRange::new(open.end, close.start);
            if empty {
                item.tag = ItemTag::EmptyBlock;
                item.b = open.start;
                tree.bodies.pop();
                debug_assert!(item.decodes_to(tree, node, body));
                return item;
            }
            if between {
                debug_assert!(item.decodes_to(tree, node, body));
                return item;
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

    /// Whether a block item reads back as `node` with `body` (an empty
    /// run's start and a body not stored aside).
    fn decodes_to(&self, tree: &Tree, node: BlockNode, body: BodyNode) -> bool {
        let ItemNodeKind::Block(got, got_body) = self.kind(tree) else {
            return false;
        };
        let empty_run = |run: Run| if run.len == 0 { Run::default() } else { run };
        let node_matches = BlockNode {
            labels: empty_run(node.labels),
            body: got.body,
            ..node
        } == got;
        let body_matches = BodyNode {
            items: empty_run(body.items),
            ..body
        } == BodyNode {
            items: empty_run(got_body.items),
            ..got_body
        };
        node_matches && body_matches
    }

    /// What the item is, as the builder was given it.
    #[inline]
    pub(crate) fn kind(&self, tree: &Tree) -> ItemNodeKind {
        match self.as_attribute(tree) {
            Some((name, equals, expr)) => ItemNodeKind::Attribute { name, equals, expr },
            None => {
                let (block, body) = self.as_block(tree).unwrap_or(NO_BLOCK);
                ItemNodeKind::Block(block, body)
            }
        }
    }

    /// An attribute's name, `=` and value; `None` for a block.
    #[inline]
    pub(crate) fn as_attribute(&self, tree: &Tree) -> Option<(TextRange, TextRange, ExprId)> {
        let start = self.range.start;
        match self.tag {
            ItemTag::Attr => {
                let name_end = start.saturating_add(self.a & 0xffff);
                let equals = start.saturating_add(self.a >> 16);
                let name = TextRange::new(start, name_end);
                let equals = TextRange::new(equals, equals.saturating_add(1));
                Some((name, equals, ExprId(self.b)))
            }
            ItemTag::WideAttr => {
                let extras = tree.attr_extras.get(self.a as usize);
                let [name, equals] = extras.copied().unwrap_or_default();
                Some((name, equals, ExprId(self.b)))
            }
            ItemTag::Block | ItemTag::EmptyBlock | ItemTag::WideBlock => None,
        }
    }

    /// A block and its body (`BodyId(NONE)` for a body not stored);
    /// `None` for an attribute.
    pub(crate) fn as_block(&self, tree: &Tree) -> Option<(BlockNode, BodyNode)> {
        let start = self.range.start;
        let body_at = |id: BodyId| {
            let body = tree.bodies.get(id.0 as usize);
            body.copied().unwrap_or(BodyNode::EMPTY)
        };
        match self.tag {
            ItemTag::Attr | ItemTag::WideAttr => None,
            ItemTag::Block => {
                let body = body_at(BodyId(self.b));
                let inner = body.range;
                let block = BlockNode {
                    type_name: TextRange::new(start, self.a),
                    labels: Run::default(),
                    body: BodyId(self.b),
                    open_brace: TextRange::new(inner.start.saturating_sub(1), inner.start),
                    close_brace: TextRange::new(inner.end, self.range.end),
                };
                Some((block, body))
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
                Some((block, body))
            }
            ItemTag::WideBlock => {
                let block = tree.blocks.get(self.a as usize).copied();
                let block = block.unwrap_or(NO_BLOCK.0);
                Some((block, body_at(block.body)))
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
