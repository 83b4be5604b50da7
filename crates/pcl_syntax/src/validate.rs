//! Validation that is not grammar: rules the parser accepts the shape of
//! but the language forbids, checked in one pass over the finished tree
//! (as rust-analyzer's `validation.rs` and starlark's `validate.rs` do),
//! so the grammar stays a description of the syntax.
//!
//! Today that is one rule: an attribute name defined twice in one body is
//! `duplicate-attribute`, reported at the second definition with the
//! first as related information. (Block labels and `options` blocks are
//! the binder's business; the grammar never checked them.)
//!
//! Nearly every file has no duplicate, which one flat pass over the body
//! arena shows first (`any_duplicate`); only a file with one is walked.
//! The walk visits the bodies in source order with an explicit stack
//! (remembering, per open body, only the names met so far), so
//! its diagnostics come out ordered by position. They are collected, like
//! the parser's, into a [`DiagnosticList`] (at most 1,000 per file) and
//! merged into the parser's list in one pass: each goes after the parser's
//! diagnostics that start at or before it (up to the first that starts
//! after it).
//! When the parser's list is in source order, as it is for every golden
//! file, the merged list is too.

use std::collections::hash_map::{Entry, HashMap};
use std::collections::HashSet;

use pcl_diagnostics::{Diagnostic, DiagnosticList, FileId, Span, TextRange};

use crate::codes;
use crate::tree::{BodyRef, Item, Tree};

/// Validates every body under `root` and merges the diagnostics into
/// `diags` by position.
pub(crate) fn file(root: BodyRef<'_>, file: FileId, diags: &mut DiagnosticList) {
    // Nearly every file has no duplicate: one flat pass over the body
    // arena proves it without the walk, its stack or the item views.
    if !any_duplicate(root.src.tree, root.src.text) {
        return;
    }
    // Bounded like the parser's list: a file of duplicates keeps the
    // first ones and counts the rest.
    let mut found = DiagnosticList::with_limit(diags.limit());
    // One frame per open body: the body, its next item, and the names its
    // attributes defined so far.
    let mut stack = vec![Frame::new(root)];
    while let Some(frame) = stack.last_mut() {
        let Some(item) = frame.body.items().get(frame.next) else {
            stack.pop();
            continue;
        };
        frame.next += 1;
        match item.kind() {
            Item::Attribute(attr) => {
                let (name, range) = (attr.name(), attr.name_range());
                if let Some(first) = frame.first_definition(name, range) {
                    found.push(duplicate(file, name, range, first));
                }
            }
            Item::Block(block) => stack.push(Frame::new(block.body())),
        }
    }
    if !found.is_empty() || found.dropped() > 0 {
        diags.merge_by_position(found);
    }
}

/// A large body's attribute names (a fast hash: the names are the
/// file's own, and a collision costs time, never a wrong answer).
type Names<'a> = HashSet<&'a str, foldhash::fast::RandomState>;

/// The bodies with more attributes than this remember the names met in a
/// hash map; smaller ones (nearly all) scan their earlier attributes,
/// which beats hashing.
const SMALL_BODY: usize = 16;

/// Whether some body of `tree` defines an attribute name twice. Every
/// body the walk in [`file`] can reach is in the body arena (bodies that
/// recovery left unreachable are checked too, which can only answer yes
/// where the walk then finds nothing), so a no here means the walk would
/// find nothing. The bodies are checked one by one in arena order with no
/// stack: a body's names go into a fixed array and, past [`SMALL_BODY`]
/// of them, into a set.
fn any_duplicate(tree: &Tree, text: &str) -> bool {
    let mut names: [&str; SMALL_BODY] = [""; SMALL_BODY];
    for body in &tree.bodies {
        let Some(items) = tree.items.get(body.items.range()) else {
            continue;
        };
        let mut count = 0;
        let mut large: Option<Names<'_>> = None;
        for item in items {
            let Some((name, _, _)) = item.as_attribute(tree) else {
                continue;
            };
            let name = text.get(name.to_usize()).unwrap_or("");
            if let Some(set) = &mut large {
                if !set.insert(name) {
                    return true;
                }
                continue;
            }
            let earlier = names.get(..count).unwrap_or(&[]);
            if earlier.contains(&name) {
                return true;
            }
            match names.get_mut(count) {
                Some(slot) => {
                    *slot = name;
                    count += 1;
                }
                None => {
                    // Sized for every item at once: no rehash as it grows.
                    let mut set = Names::with_capacity_and_hasher(items.len(), Default::default());
                    set.extend(names.iter().copied());
                    set.insert(name);
                    large = Some(set);
                }
            }
        }
    }
    false
}

/// A body being validated.
struct Frame<'a> {
    body: BodyRef<'a>,
    /// The index of the next item.
    next: usize,
    /// For a large body, the first definition of every attribute name met
    /// so far (it grows with the distinct names, not with the body).
    seen: Option<HashMap<&'a str, TextRange, foldhash::fast::RandomState>>,
}

impl<'a> Frame<'a> {
    fn new(body: BodyRef<'a>) -> Frame<'a> {
        let large = body.attributes().nth(SMALL_BODY).is_some();
        Frame {
            body,
            next: 0,
            seen: large.then(HashMap::default),
        }
    }

    /// The name range of the body's first attribute named `name`, when it
    /// comes before the attribute at `range` (which is then a duplicate).
    fn first_definition(&mut self, name: &'a str, range: TextRange) -> Option<TextRange> {
        match &mut self.seen {
            Some(seen) => match seen.entry(name) {
                Entry::Occupied(first) => Some(*first.get()),
                Entry::Vacant(slot) => {
                    slot.insert(range);
                    None
                }
            },
            None => self
                .body
                .attributes()
                .take_while(|a| a.name_range() != range)
                .find(|a| a.name() == name)
                .map(|a| a.name_range()),
        }
    }
}

fn duplicate(file: FileId, name: &str, range: TextRange, first: TextRange) -> Diagnostic {
    Diagnostic::error(
        codes::DUPLICATE_ATTRIBUTE,
        Span::new(file, range),
        format!("attribute `{name}` is already defined in this body"),
    )
    .with_related(Span::new(file, first), "first defined here")
}
