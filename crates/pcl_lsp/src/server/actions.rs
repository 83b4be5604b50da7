//! Edits the server offers: code actions (every structured fix of a
//! diagnostic as a quick fix) and formatting of a whole document or a
//! range of it through `pcl_fmt`.

use std::collections::HashMap;

use lsp_types::{CodeActionKind, CodeActionOrCommand, Location, TextEdit, WorkspaceEdit};
use pcl_diagnostics::{FileId, Span};

use super::Server;
use crate::position::{Encoding, Lines};

impl Server {
    pub(super) fn code_actions(
        &self,
        p: &lsp_types::CodeActionParams,
    ) -> Option<Vec<CodeActionOrCommand>> {
        let (a, file) = self.find(&p.text_document.uri)?;
        let start = a.offset(file, p.range.start, self.encoding);
        let end = a.offset(file, p.range.end, self.encoding);
        Some(quick_fixes(
            &a.diagnostics,
            file,
            start..end,
            |span| a.location(span, self.encoding),
            |d| self.diagnostic(a, d),
        ))
    }

    pub(super) fn format(&self, p: &lsp_types::DocumentFormattingParams) -> Option<Vec<TextEdit>> {
        let text = self.open.get(&p.text_document.uri)?;
        let formatted = pcl_fmt::format(FileId(0), text).ok()?;
        Some(whole_text_edit(text, formatted, self.encoding))
    }

    pub(super) fn format_range(
        &self,
        p: &lsp_types::DocumentRangeFormattingParams,
    ) -> Option<Vec<TextEdit>> {
        let text = self.open.get(&p.text_document.uri)?;
        let lines = Lines::new(text);
        let start = lines.offset(text, p.range.start, self.encoding);
        let end = lines.offset(text, p.range.end, self.encoding).max(start);
        let range = pcl_diagnostics::TextRange::from_usize(start..end);
        let formatted = pcl_fmt::format_range(FileId(0), text, range).ok()?;
        Some(whole_text_edit(text, formatted, self.encoding))
    }
}

/// Every fix of the diagnostics of `file` that touch `range`, as a quick
/// fix; `locate` gives the location of a span, `convert` the LSP form of a
/// diagnostic.
fn quick_fixes(
    diagnostics: &[pcl_diagnostics::Diagnostic],
    file: FileId,
    range: std::ops::Range<usize>,
    locate: impl Fn(Span) -> Option<Location>,
    convert: impl Fn(&pcl_diagnostics::Diagnostic) -> lsp_types::Diagnostic,
) -> Vec<CodeActionOrCommand> {
    let mut actions = Vec::new();
    for d in diagnostics {
        let r = d.span.range.to_usize();
        if d.span.file != file || r.start > range.end || r.end < range.start {
            continue;
        }
        for fix in d.fixes() {
            let Some(location) = locate(fix.span) else {
                continue;
            };
            let edit = TextEdit {
                range: location.range,
                new_text: fix.replacement.clone(),
            };
            actions.push(CodeActionOrCommand::CodeAction(lsp_types::CodeAction {
                title: fix.message.clone(),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![convert(d)]),
                edit: Some(WorkspaceEdit {
                    changes: Some(HashMap::from([(location.uri, vec![edit])])),
                    ..WorkspaceEdit::default()
                }),
                is_preferred: Some(d.fixes().len() == 1),
                ..lsp_types::CodeAction::default()
            }));
        }
    }
    actions
}

/// No edit when `new` is `text`, else one edit replacing the whole text.
fn whole_text_edit(text: &str, new: String, enc: Encoding) -> Vec<TextEdit> {
    if new == text {
        return Vec::new();
    }
    let lines = Lines::new(text);
    vec![TextEdit {
        range: lines.range(text, 0..text.len(), enc),
        new_text: new,
    }]
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::Url;
    use pcl_diagnostics::{Code, Diagnostic, TextRange};

    #[test]
    fn every_fix_of_a_touched_diagnostic_is_a_quick_fix() {
        let file = FileId(0);
        let span = |a, b| Span::new(file, TextRange::new(a, b));
        let fixed = Diagnostic::error(Code("undefined-variable"), span(4, 7), "undefined `nme`")
            .with_fix(span(4, 7), "name");
        let elsewhere = Diagnostic::error(Code("undefined-variable"), span(40, 43), "far")
            .with_fix(span(40, 43), "far");
        let other_file = Diagnostic::error(
            Code("undefined-variable"),
            Span::new(FileId(1), TextRange::new(4, 7)),
            "other",
        )
        .with_fix(Span::new(FileId(1), TextRange::new(4, 7)), "x");
        let uri = Url::parse("file:///p/main.pp").ok();
        let locate = |s: Span| {
            Some(Location {
                uri: uri.clone()?,
                range: lsp_types::Range::new(
                    lsp_types::Position::new(0, s.range.start),
                    lsp_types::Position::new(0, s.range.end),
                ),
            })
        };
        let convert = |d: &Diagnostic| lsp_types::Diagnostic {
            message: d.summary.clone(),
            ..lsp_types::Diagnostic::default()
        };
        let actions = quick_fixes(&[fixed, elsewhere, other_file], file, 5..5, locate, convert);
        assert_eq!(actions.len(), 1, "{actions:?}");
        let Some(CodeActionOrCommand::CodeAction(action)) = actions.first() else {
            panic!("not a code action: {actions:?}");
        };
        assert_eq!(action.kind, Some(CodeActionKind::QUICKFIX));
        let edits = action
            .edit
            .as_ref()
            .and_then(|e| e.changes.as_ref())
            .and_then(|c| c.values().next())
            .cloned()
            .unwrap_or_default();
        assert_eq!(edits.len(), 1);
        assert_eq!(edits.first().map(|e| e.new_text.as_str()), Some("name"));
        assert_eq!(
            edits.first().map(|e| e.range.start),
            Some(lsp_types::Position::new(0, 4))
        );
        let diags = action.diagnostics.clone().unwrap_or_default();
        assert_eq!(
            diags.first().map(|d| d.message.as_str()),
            Some("undefined `nme`")
        );
    }
}
