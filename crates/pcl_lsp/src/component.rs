//! Go to a component's directory: definition on the source string of
//! `component web "./web" {}` answers the `.pp` files of that directory
//! (`main.pp` first when there is one), each as a link to the file's
//! start.
//!
//! The binder keeps the resolved directory (`ComponentNode::directory`,
//! relative to the program's directory) but not where the string is
//! written, so the header's tokens are read again, up to its `{`.

use std::path::Path;

use lsp_types::{LocationLink, Url};
use pcl_diagnostics::TextRange;
use pcl_syntax::TokenKind;

/// The links of a definition request at `offset` of `text` (a file of
/// the program whose document is `uri`), when it is on the source string
/// of `node`, a component; `range` converts a byte range of the file.
pub(crate) fn definition(
    text: &str,
    node: &pcl_binder::Node,
    uri: &Url,
    offset: usize,
    range: impl Fn(TextRange) -> lsp_types::Range,
) -> Option<Vec<LocationLink>> {
    let pcl_binder::NodeKind::Component(c) = &node.kind else {
        return None;
    };
    let start = node.span.range.start;
    let label = source_label(text.get(node.span.range.to_usize())?)?;
    let label = TextRange::new(start + label.start, start + label.end);
    if !(label.start as usize <= offset && offset <= label.end as usize) {
        return None;
    }
    // Resolved by the check (inside the root); a source it refused (outside
    // the root, missing) links nowhere.
    let written = c.directory.as_ref()?;
    let program_dir = uri.to_file_path().ok()?.parent()?.to_path_buf();
    let found = links(&program_dir.join(written), range(label));
    (!found.is_empty()).then_some(found)
}

/// The range of the second label (the source) of the block header that
/// starts `block`, a component's text (quotes included).
pub(crate) fn source_label(block: &str) -> Option<TextRange> {
    let mut labels: Vec<TextRange> = Vec::new();
    let mut open: Option<u32> = None;
    for token in pcl_syntax::lex(block).iter().skip(1) {
        match token.kind {
            TokenKind::OBrace if open.is_none() => break,
            TokenKind::OQuote if open.is_none() => open = Some(token.range.start),
            TokenKind::CQuote => {
                if let Some(start) = open.take() {
                    labels.push(TextRange::new(start, token.range.end));
                }
            }
            TokenKind::Ident if open.is_none() => labels.push(token.range),
            TokenKind::Newline if open.is_none() => break,
            _ => {}
        }
        if labels.len() == 2 {
            break;
        }
    }
    labels.get(1).copied()
}

/// Links to the `.pp` files of `dir` (`main.pp` first, then by name),
/// from `origin`.
pub(crate) fn links(dir: &Path, origin: lsp_types::Range) -> Vec<LocationLink> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<std::path::PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "pp") && p.is_file())
        .collect();
    files.sort_by_key(|p| (p.file_name().is_none_or(|n| n != "main.pp"), p.clone()));
    let start = lsp_types::Range::default();
    files
        .into_iter()
        .filter_map(|p| Url::from_file_path(p).ok())
        .map(|target_uri| LocationLink {
            origin_selection_range: Some(origin),
            target_uri,
            target_range: start,
            target_selection_range: start,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_is_the_second_label() {
        let text = "component web \"./web\" {\n}\n";
        assert_eq!(source_label(text), Some(TextRange::new(14, 21)));
        let text = "component \"web\" \"../x\" {}";
        assert_eq!(source_label(text), Some(TextRange::new(16, 22)));
        assert_eq!(source_label("component web {\n}\n"), None);
    }
}
