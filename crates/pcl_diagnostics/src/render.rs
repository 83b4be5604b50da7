//! Human rendering of diagnostics through ariadne.
//!
//! This is the only module that knows about ariadne. Output is plain text
//! unless colour is asked for, so golden files and non-terminal streams
//! never carry escape codes. A snippet never prints more than a window of
//! a long line (see [`View`]); the header's position is the file's.

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

/// A file cache for ariadne keyed by our file names: the [`View`]s of the
/// files one diagnostic points into.
struct Files<'a> {
    sources: &'a SourceMap,
    views: &'a [(FileId, View)],
}

impl<'a> ariadne::Cache<FileId> for Files<'a> {
    type Storage = String;

    fn fetch(&mut self, id: &FileId) -> Result<&Source<String>, impl std::fmt::Debug> {
        match self.views.iter().find(|(file, _)| file == id) {
            Some((_, view)) => Ok(&view.source),
            None => Err(format!("no file {}", id.0)),
        }
    }

    fn display<'b>(&self, id: &'b FileId) -> Option<impl std::fmt::Display + 'b> {
        self.sources.get(*id).map(|file| file.name().to_string())
    }
}

/// A line longer than this many bytes is shown as windows around the
/// places the diagnostic points at (a 10 MB line is not printed whole).
const LONG_LINE: usize = 400;
/// Bytes kept on each side of a label's start and end in a long line.
const CONTEXT: usize = 80;
/// What stands for the bytes left out of a long line.
const ELLIPSIS: &str = "\u{2026}";

/// A file as a snippet shows it: [`printable`], with every line longer
/// than [`LONG_LINE`] cut down to windows of [`CONTEXT`] bytes around the
/// points of interest (label starts and ends) on it, the gaps marked with
/// [`ELLIPSIS`]. Lines are never removed, so line numbers stay exact;
/// [`View::offset`] maps byte offsets of the file into the view.
struct View {
    source: Source<String>,
    /// `(start, end)` of each left-out byte range of the file, in order;
    /// each is replaced by one [`ELLIPSIS`].
    cuts: Vec<(usize, usize)>,
}

impl View {
    fn new(text: &str, points: &[usize]) -> View {
        let mut cuts = Vec::new();
        let mut line_start = 0;
        while line_start <= text.len() {
            let line_end = text
                .get(line_start..)
                .and_then(|rest| rest.find('\n'))
                .map_or(text.len(), |i| line_start + i);
            if line_end - line_start > LONG_LINE {
                long_line_cuts(text, line_start, line_end, points, &mut cuts);
            }
            line_start = line_end + 1;
        }
        let shown = if cuts.is_empty() {
            printable(text)
        } else {
            let mut shown = String::with_capacity(text.len().min(1 << 20));
            let mut at = 0;
            for &(start, end) in &cuts {
                shown.push_str(&printable(text.get(at..start).unwrap_or("")));
                shown.push_str(ELLIPSIS);
                at = end;
            }
            shown.push_str(&printable(text.get(at..).unwrap_or("")));
            shown
        };
        View {
            source: Source::from(shown),
            cuts,
        }
    }

    /// The view offset of the file offset `offset` (one inside a cut maps
    /// to the start of its ellipsis).
    fn offset(&self, offset: usize) -> usize {
        let mut shift: isize = 0;
        for &(start, end) in &self.cuts {
            if offset < end {
                if offset > start {
                    return start.saturating_add_signed(shift);
                }
                break;
            }
            shift += ELLIPSIS.len() as isize - (end - start) as isize;
        }
        offset.saturating_add_signed(shift)
    }

    fn range(&self, range: &Range<usize>) -> Range<usize> {
        self.offset(range.start)..self.offset(range.end)
    }

    /// Whether `offset` is on a line that was cut.
    fn cut_line(&self, text: &str, offset: usize) -> bool {
        let line_start = text
            .get(..offset)
            .and_then(|b| b.rfind('\n'))
            .map_or(0, |i| i + 1);
        let line_end = text
            .get(offset..)
            .and_then(|a| a.find('\n'))
            .map_or(text.len(), |i| offset + i);
        self.cuts
            .iter()
            .any(|&(start, end)| start >= line_start && end <= line_end)
    }
}

/// The cuts of the long line `start..end` of `text`: everything but the
/// windows of [`CONTEXT`] bytes around the `points` on it (its start when
/// there are none), merged when they overlap, on character boundaries.
fn long_line_cuts(
    text: &str,
    start: usize,
    end: usize,
    points: &[usize],
    cuts: &mut Vec<(usize, usize)>,
) {
    let floor = |mut i: usize| {
        while i > start && !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let ceil = |mut i: usize| {
        while i < end && !text.is_char_boundary(i) {
            i += 1;
        }
        i
    };
    let mut windows: Vec<(usize, usize)> = points
        .iter()
        .filter(|&&p| p >= start && p <= end)
        .map(|&p| {
            (
                floor(p.saturating_sub(CONTEXT).max(start)),
                ceil((p + CONTEXT).min(end)),
            )
        })
        .collect();
    if windows.is_empty() {
        windows.push((start, ceil((start + 2 * CONTEXT).min(end))));
    }
    windows.sort_unstable();
    let mut at = start;
    for (from, to) in windows {
        // A gap shorter than the marker is kept.
        if from > at + ELLIPSIS.len() {
            cuts.push((at, from));
            at = to;
        } else {
            at = at.max(to);
        }
    }
    if end > at + ELLIPSIS.len() {
        cuts.push((at, end));
    }
}

/// `line:column` (1-based, the column in characters) of `offset` in
/// `text`, as ariadne's header shows it.
fn header_position(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before.get(line_start..).unwrap_or("").chars().count() + 1;
    (line, column)
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
    let related: Vec<(FileId, Range<usize>)> = diagnostic
        .related
        .iter()
        .map(|l| (l.span.file, clamp(sources, l.span.file, l.span.range)))
        .collect();
    // The files shown, in ariadne's order (the primary's first), each with
    // its points of interest and the offset its header names.
    let mut shown: Vec<(FileId, Vec<usize>, usize)> = vec![(file, Vec::new(), primary.start)];
    for (f, range) in std::iter::once((file, primary.clone())).chain(related.iter().cloned()) {
        let at = match shown.iter().position(|(g, _, _)| *g == f) {
            Some(at) => at,
            None => {
                shown.push((f, Vec::new(), range.start));
                shown.len() - 1
            }
        };
        if let Some((_, points, _)) = shown.get_mut(at) {
            points.extend([range.start, range.end]);
        }
    }
    let views: Vec<(FileId, View)> = shown
        .iter()
        .map(|(f, points, _)| {
            let text = sources.get(*f).map_or("", |file| file.text());
            (*f, View::new(text, points))
        })
        .collect();
    let view_of = |f: FileId| views.iter().find(|(g, _)| *g == f).map(|(_, v)| v);
    let map = |f: FileId, r: &Range<usize>| view_of(f).map_or(r.clone(), |v| v.range(r));
    // The primary label repeats the summary when there is no detail:
    // ariadne draws a label only with a message, and the underline must
    // show where the problem is.
    let label = AriadneLabel::new((file, map(file, &primary))).with_message(
        diagnostic
            .detail
            .as_deref()
            .unwrap_or(diagnostic.summary.as_str()),
    );
    let mut builder = Report::build(kind, (file, map(file, &primary)))
        .with_config(config)
        .with_code(diagnostic.code.as_str())
        .with_message(&diagnostic.summary)
        .with_label(label);
    for (l, (f, range)) in diagnostic.related.iter().zip(&related) {
        builder =
            builder.with_label(AriadneLabel::new((*f, map(*f, range))).with_message(&l.message));
    }
    for help in &diagnostic.help {
        builder = builder.with_help(help);
    }
    let report = builder.finish();
    let mut out = Vec::new();
    let mut files = Files {
        sources,
        views: &views,
    };
    if report.write(&mut files, &mut out).is_err() {
        // Rendering into memory only fails if a file is missing; fall back
        // to a one-line form rather than losing the diagnostic.
        return render_short(diagnostic, sources) + "\n";
    }
    let mut out = String::from_utf8_lossy(&out).into_owned();
    // A header naming a place on a cut line shows the view's column: put
    // the file's back.
    let mut from = 0;
    for (f, _, at) in &shown {
        let (Some(file), Some(view)) = (sources.get(*f), view_of(*f)) else {
            continue;
        };
        let text = file.text();
        if !view.cut_line(text, *at) {
            continue;
        }
        let (line, column) = header_position(text, *at);
        let (_, view_column) = header_position(view.source.text(), view.offset(*at));
        let name = file.name();
        let wrong = format!(" {name}:{line}:{view_column} ");
        if let Some(i) = out.get(from..).and_then(|rest| rest.find(&wrong)) {
            let right = format!(" {name}:{line}:{column} ");
            out.replace_range(from + i..from + i + wrong.len(), &right);
            from += i + right.len();
        }
    }
    out
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
    /// The underline under the first snippet line holding `needle`, from
    /// `needle`'s column on, as long as `needle`.
    fn underline_of(rendered: &str, needle: &str) -> String {
        let lines: Vec<&str> = rendered.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no line with {needle:?} in {rendered}"));
        let line = lines[at];
        let column = line[..line.find(needle).unwrap_or(0)].chars().count();
        lines[at + 1]
            .chars()
            .skip(column)
            .take(needle.chars().count())
            .collect()
    }

    #[test]
    fn huge_lines_are_shown_as_windows_with_exact_positions() {
        const LEN: usize = 1_000_000;
        let text = format!("a = \"{}\" + nope\nb = 1\n", "x".repeat(LEN));
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", text.as_str());
        let at = text.find("nope").unwrap_or(0);
        let diag = Diagnostic::error(
            Code("undefined-variable"),
            Span::new(file, TextRange::from_usize(at..at + 4)),
            "undefined variable nope",
        )
        .with_related(Span::new(file, TextRange::from_usize(0..1)), "used here");
        let rendered = render(&diag, &sources, RenderOptions { color: false });
        assert!(rendered.len() < 2_000, "{} bytes", rendered.len());
        // The header is the file's position, not the window's.
        assert!(
            rendered.contains(&format!(" main.pp:1:{} ", at + 1)),
            "{rendered}"
        );
        assert_eq!(
            render_short(&diag, &sources),
            format!(
                "main.pp:1:{}: error[undefined-variable]: undefined variable nope",
                at + 1
            )
        );
        // Both labels' windows, the gap between them marked, and the caret
        // under the name.
        assert!(rendered.contains("a = \"xxx"), "{rendered}");
        assert!(
            rendered.contains(&format!("xxx{ELLIPSIS}xxx")),
            "{rendered}"
        );
        assert!(rendered.contains("xxx\" + nope"), "{rendered}");
        assert_eq!(underline_of(&rendered, "+ nope"), "  ──┬─", "{rendered}");
    }

    #[test]
    fn a_label_over_a_huge_line_is_cut_too() {
        // A label from one end of a long line of wide characters to the
        // other, a short line after it, and an error starting mid-line.
        let line = format!("a = \"{}\"", "é".repeat(50_000));
        let text = format!("{line}\nb = 2\n");
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", text.as_str());
        let whole = Diagnostic::error(
            Code("type-mismatch"),
            Span::new(file, TextRange::from_usize(4..line.len())),
            "a long string",
        )
        .with_related(
            Span::new(file, TextRange::from_usize(line.len() + 1..line.len() + 2)),
            "b",
        );
        let rendered = render(&whole, &sources, RenderOptions { color: false });
        assert!(
            rendered.len() < 3_000,
            "{} bytes: {rendered}",
            rendered.len()
        );
        assert!(rendered.contains(" main.pp:1:5 "), "{rendered}");
        assert!(rendered.contains(&format!("é{ELLIPSIS}é")), "{rendered}");
        assert!(rendered.contains(" 2 │ b = 2"), "{rendered}");
        let middle = 5 + 2 * 25_000; // `a = "` and 25 000 `é`
        let inside = Diagnostic::error(
            Code("x"),
            Span::new(file, TextRange::from_usize(middle..middle + 2)),
            "in the middle",
        );
        let rendered = render(&inside, &sources, RenderOptions { color: false });
        let column = line[..middle].chars().count() + 1;
        assert!(
            rendered.contains(&format!(" main.pp:1:{column} ")),
            "{rendered}"
        );
        assert!(rendered.len() < 3_000, "{} bytes", rendered.len());
    }

    #[test]
    fn view_offsets_map_windows_exactly() {
        let text = format!(
            "{}ab{}cd{}",
            "x".repeat(500),
            "y".repeat(500),
            "z".repeat(500)
        );
        let points = [500, 1002];
        let view = View::new(&text, &points);
        let shown = view.source.text();
        assert!(shown.len() < 600, "{shown}");
        for p in points {
            let v = view.offset(p);
            assert_eq!(&shown[v..v + 2], &text[p..p + 2], "{p}");
        }
        // A short file is not cut.
        let short = View::new("a = 1\n", &[0]);
        assert_eq!(short.source.text(), "a = 1\n");
        assert_eq!(short.offset(4), 4);
    }
}
