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
//! The pass walks the bodies in source order with an explicit stack, so
//! its diagnostics come out ordered by position. They are merged into the
//! parser's list in one pass: each goes after the parser's diagnostics
//! that start at or before it (up to the first that starts after it).
//! When the parser's list is in source order, as it is for every golden
//! file, the merged list is too.

use std::collections::HashMap;

use pcl_diagnostics::{Diagnostic, FileId, Span, TextRange};

use crate::codes;
use crate::tree::{BodyRef, Item};

/// Validates every body under `root` and merges the diagnostics into
/// `diags` by position.
pub(crate) fn file(root: BodyRef<'_>, file: FileId, diags: &mut Vec<Diagnostic>) {
    let mut found = Vec::new();
    // One frame per open body: the body, the next item, its duplicates
    // (in source order) and the next of those.
    let mut stack = vec![(root, 0, duplicate_attributes(root), 0)];
    while let Some((body, item_idx, dups, dup_idx)) = stack.last_mut() {
        let Some(item) = body.items().get(*item_idx) else {
            stack.pop();
            continue;
        };
        *item_idx += 1;
        match item.kind() {
            Item::Attribute(attr) => {
                if let Some(&(name, range, first)) = dups.get(*dup_idx) {
                    if range == attr.name_range() {
                        *dup_idx += 1;
                        found.push(duplicate(file, name, range, first));
                    }
                }
            }
            Item::Block(block) => {
                let body = block.body();
                stack.push((body, 0, duplicate_attributes(body), 0));
            }
        }
    }
    if !found.is_empty() {
        merge(diags, found);
    }
}

/// Merges `found` (ordered by position) into `diags`: each element of
/// `found` goes after every diagnostic of `diags` that starts at or before
/// it and that comes before the first one starting after it.
fn merge(diags: &mut Vec<Diagnostic>, found: Vec<Diagnostic>) {
    if diags.is_empty() {
        // Nothing to interleave: move the list rather than hold two.
        *diags = found;
        return;
    }
    let parser = std::mem::take(diags);
    diags.reserve(parser.len() + found.len());
    let mut parser = parser.into_iter().peekable();
    for d in found {
        while let Some(p) = parser.next_if(|p| p.span.range.start <= d.span.range.start) {
            diags.push(p);
        }
        diags.push(d);
    }
    diags.extend(parser);
}

fn duplicate(file: FileId, name: &str, range: TextRange, first: TextRange) -> Diagnostic {
    Diagnostic::error(
        codes::DUPLICATE_ATTRIBUTE,
        Span::new(file, range),
        format!("attribute `{name}` is already defined in this body"),
    )
    .with_related(Span::new(file, first), "first defined here")
}

/// The attributes of one body that repeat an earlier one's name: name,
/// range, and the first definition's range, in source order.
fn duplicate_attributes(body: BodyRef<'_>) -> Vec<(&str, TextRange, TextRange)> {
    let attrs = || body.attributes().map(|a| (a.name(), a.name_range()));
    let count = attrs().count();
    if count < 2 {
        return Vec::new();
    }
    let mut dups: Vec<(&str, TextRange, TextRange)> = Vec::new();
    if count <= 16 {
        // Small bodies (nearly all): a quadratic scan beats hashing.
        for (idx, (name, range)) in attrs().enumerate() {
            if let Some((_, first)) = attrs().take(idx).find(|(n, _)| *n == name) {
                dups.push((name, range, first));
            }
        }
    } else {
        let mut seen: HashMap<&str, TextRange> = HashMap::with_capacity(count);
        for (name, range) in attrs() {
            match seen.get(name) {
                Some(first) => dups.push((name, range, *first)),
                None => {
                    seen.insert(name, range);
                }
            }
        }
    }
    dups
}
