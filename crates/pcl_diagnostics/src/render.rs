//! Human rendering of diagnostics through ariadne.
//!
//! This is the only module that knows about ariadne. Output is plain text
//! unless colour is asked for, so golden files and non-terminal streams
//! never carry escape codes.

use std::ops::Range;

use ariadne::{Config, IndexType, Label as AriadneLabel, Report, ReportKind, Source};

use crate::diagnostic::{Diagnostic, Severity};
use crate::source::{FileId, SourceMap};

/// How to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Emit ANSI colour codes.
    pub color: bool,
}

/// A file cache for ariadne keyed by our file names.
struct Files<'a> {
    sources: &'a SourceMap,
    cache: Vec<Option<Source<String>>>,
}

impl<'a> ariadne::Cache<FileId> for Files<'a> {
    type Storage = String;

    fn fetch(&mut self, id: &FileId) -> Result<&Source<String>, impl std::fmt::Debug> {
        let idx = id.0 as usize;
        if self.cache.len() <= idx {
            self.cache.resize_with(idx + 1, || None);
        }
        let sources = self.sources;
        match self.cache.get_mut(idx) {
            Some(slot) => {
                let source = slot.get_or_insert_with(|| {
                    Source::from(
                        sources
                            .get(*id)
                            .map(|file| printable(file.text()))
                            .unwrap_or_default(),
                    )
                });
                Ok(&*source)
            }
            None => Err(format!("no file {}", id.0)),
        }
    }

    fn display<'b>(&self, id: &'b FileId) -> Option<impl std::fmt::Display + 'b> {
        self.sources.get(*id).map(|file| file.name().to_string())
    }
}

/// `text` as it may be shown in a snippet: every character that would
/// act on the terminal or that ariadne would take for a line break while
/// [`crate::LineIndex`] does not (control characters other than tab, line
/// feed and the carriage return of a CRLF; U+2028 and U+2029) becomes a
/// visible stand-in of the same UTF-8 length (`?`, `¿`, U+FFFD), so byte
/// offsets, line numbers and carets stay exact and no escape sequence from
/// the input reaches the terminal.
fn printable(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let keep = match c {
            '\n' | '\t' => true,
            '\r' => chars.peek() == Some(&'\n'),
            '\u{2028}' | '\u{2029}' => false,
            c => !c.is_control(),
        };
        if keep {
            out.push(c);
        } else {
            out.push(match c.len_utf8() {
                1 => '?',
                2 => '\u{bf}',
                _ => char::REPLACEMENT_CHARACTER,
            });
        }
    }
    out
}

/// Byte range of a span clamped into its file and widened onto character
/// boundaries, as ariadne wants it.
fn clamp(sources: &SourceMap, file: FileId, range: crate::TextRange) -> Range<usize> {
    let text = sources.get(file).map_or("", |f| f.text());
    let mut start = (range.start as usize).min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (range.end as usize).clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

/// Renders one diagnostic to a string.
pub fn render(diagnostic: &Diagnostic, sources: &SourceMap, options: RenderOptions) -> String {
    let kind = match diagnostic.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
        Severity::Note => ReportKind::Advice,
    };
    let file = diagnostic.span.file;
    let primary = clamp(sources, file, diagnostic.span.range);
    let config = Config::default()
        .with_color(options.color)
        .with_index_type(IndexType::Byte);
    // The primary label repeats the summary when there is no detail:
    // ariadne draws a label only with a message, and the underline must
    // show where the problem is.
    let label = AriadneLabel::new((file, primary.clone())).with_message(
        diagnostic
            .detail
            .as_deref()
            .unwrap_or(diagnostic.summary.as_str()),
    );
    let mut builder = Report::build(kind, (file, primary))
        .with_config(config)
        .with_code(diagnostic.code.as_str())
        .with_message(&diagnostic.summary)
        .with_label(label);
    for related in &diagnostic.related {
        let range = clamp(sources, related.span.file, related.span.range);
        builder = builder.with_label(
            AriadneLabel::new((related.span.file, range)).with_message(&related.message),
        );
    }
    for help in &diagnostic.help {
        builder = builder.with_help(help);
    }
    let report = builder.finish();
    let mut out = Vec::new();
    let mut files = Files {
        sources,
        cache: Vec::new(),
    };
    if report.write(&mut files, &mut out).is_err() {
        // Rendering into memory only fails if a file is missing; fall back
        // to a one-line form rather than losing the diagnostic.
        return render_short(diagnostic, sources) + "\n";
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Renders all diagnostics, one after another.
pub fn render_all(
    diagnostics: &[Diagnostic],
    sources: &SourceMap,
    options: RenderOptions,
) -> String {
    diagnostics
        .iter()
        .map(|d| render(d, sources, options))
        .collect()
}

/// `path:line:col: severity[code]: summary`.
pub fn render_short(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
    let (name, line, column) = match sources.get(diagnostic.span.file) {
        Some(file) => {
            let pos = file.position(diagnostic.span.range.start);
            (file.name().to_string(), pos.line, pos.column)
        }
        None => ("<unknown>".to_string(), 1, 1),
    };
    format!(
        "{name}:{line}:{column}: {}[{}]: {}",
        diagnostic.severity, diagnostic.code, diagnostic.summary
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Code, Span, TextRange};

    #[test]
    fn renders_source_line_without_colour() {
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", "a = 1\nb = c\n");
        let diag = Diagnostic::error(
            Code("undefined-variable"),
            Span::new(file, TextRange::new(10, 11)),
            "undefined variable c",
        )
        .with_help("did you mean `a`?");
        let text = render(&diag, &sources, RenderOptions { color: false });
        assert!(text.contains("undefined-variable"), "{text}");
        assert!(text.contains("main.pp:2:5"), "{text}");
        assert!(text.contains("b = c"), "{text}");
        assert!(text.contains("did you mean `a`?"), "{text}");
        assert!(!text.contains('\u{1b}'), "{text}");
        assert_eq!(
            render_short(&diag, &sources),
            "main.pp:2:5: error[undefined-variable]: undefined variable c"
        );
    }

    #[test]
    fn snippets_escape_control_characters_and_keep_positions() {
        let text = "# \u{1b}[31mred\na = 1\0b = c\rd\u{2028}\u{85}\r\n";
        let shown = printable(text);
        assert_eq!(shown.len(), text.len());
        assert_eq!(shown, "# ?[31mred\na = 1?b = c?d\u{fffd}\u{bf}\r\n");
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", text);
        let diag = Diagnostic::error(
            Code("undefined-variable"),
            Span::new(file, TextRange::new(21, 22)),
            "undefined variable c",
        );
        let rendered = render(&diag, &sources, RenderOptions { color: false });
        assert!(rendered.contains("main.pp:2:11"), "{rendered}");
        assert!(rendered.contains("a = 1?b = c?d"), "{rendered}");
        assert!(
            !rendered
                .chars()
                .any(|c| c.is_control() && c != '\n' && c != '\t'),
            "{rendered:?}"
        );
        // A range that splits a character is moved onto boundaries
        // instead of panicking inside ariadne.
        let inside = Diagnostic::error(
            Code("x"),
            Span::new(file, TextRange::new(25, 26)),
            "inside a character",
        );
        let rendered = render(&inside, &sources, RenderOptions { color: false });
        assert!(rendered.contains("main.pp:2:"), "{rendered}");
    }
}
