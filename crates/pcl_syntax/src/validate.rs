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
//! The pass walks bodies with an explicit stack. Its diagnostics join the
//! parser's, and the whole list is then ordered by position (stable, so
//! diagnostics at one offset keep the parser's order): the order a reader
//! meets the problems in, which is the order the parser reported them in
//! before this rule left it.

use std::collections::HashMap;

use pcl_diagnostics::{Diagnostic, FileId, Span, TextRange};

use crate::codes;
use crate::tree::BodyRef;

/// Validates every body under `root` and appends the diagnostics; if there
/// are any, orders all of `diags` by position.
pub(crate) fn file(root: BodyRef<'_>, file: FileId, diags: &mut Vec<Diagnostic>) {
    let before = diags.len();
    let mut stack = vec![root];
    while let Some(body) = stack.pop() {
        duplicate_attributes(body, file, diags);
        stack.extend(body.blocks().map(|block| block.body()));
    }
    if diags.len() > before {
        diags.sort_by_key(|d| d.span.range.start);
    }
}

/// Reports attributes defined twice in one body.
fn duplicate_attributes(body: BodyRef<'_>, file: FileId, diags: &mut Vec<Diagnostic>) {
    let attrs = || body.attributes().map(|a| (a.name(), a.name_range()));
    let count = attrs().count();
    if count < 2 {
        return;
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
    for (name, range, first) in dups {
        diags.push(
            Diagnostic::error(
                codes::DUPLICATE_ATTRIBUTE,
                Span::new(file, range),
                format!("attribute `{name}` is already defined in this body"),
            )
            .with_related(Span::new(file, first), "first defined here"),
        );
    }
}
