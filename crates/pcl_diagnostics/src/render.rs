//! Human rendering of diagnostics through ariadne.
//!
//! This is the only module that knows about ariadne. Output is plain text
//! unless colour is asked for, so golden files and non-terminal streams
//! never carry escape codes. A snippet never prints more than a window of
//! a long line (see [`View`]); the header's position is the file's.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::ops::Range;

use ariadne::{Config, IndexType, Label as AriadneLabel, Report, ReportKind, Source};

use crate::diagnostic::{Diagnostic, Severity};
use crate::source::{FileId, SourceFile, SourceMap};

/// How to render.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Emit ANSI colour codes.
    pub color: bool,
}

/// Whether `c` must not reach a terminal or a CI log as is: control
/// characters (C0, DEL, C1: ESC, CR, LF, NUL, …), the line and paragraph
/// separators U+2028 and U+2029, and the Unicode format characters
/// (general category Cf: the bidi embeddings, overrides and isolates
/// U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F and U+061C,
/// zero-width space, word joiner, BOM, tag characters, …), which reorder
/// or hide text. The zero-width (non-)joiners U+200C and U+200D are kept:
/// scripts and emoji need them and they reorder nothing.
pub fn is_unsafe_char(c: char) -> bool {
    if c.is_ascii() {
        // C0 and DEL; no ASCII character is a separator or a format one.
        return c.is_ascii_control();
    }
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') || is_format(c)
}

/// Whether every byte of `text` is printable ASCII (space to `~`), or
/// with `lines` also a line feed or a tab: such text holds no character
/// [`is_unsafe_char`] rejects. A branch-free fold, so that the common case
/// (plain ASCII messages, names and source lines) costs a fraction of an
/// instruction per byte rather than a character decode and a table of
/// ranges per character.
fn plain_ascii(text: &str, lines: bool) -> bool {
    text.bytes().fold(true, |all, b| {
        all & ((b' '..=b'~').contains(&b) | (lines & ((b == b'\n') | (b == b'\t'))))
    })
}

/// Unicode general category Cf (format), less U+200C and U+200D.
fn is_format(c: char) -> bool {
    matches!(
        c,
        '\u{ad}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{890}'..='\u{891}'
            | '\u{8e2}'
            | '\u{180e}'
            | '\u{200b}'
            | '\u{200e}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0001}'
            | '\u{e0020}'..='\u{e007f}'
    )
}

/// `text` made safe for one line of a terminal or a CI log: every
/// character [`is_unsafe_char`] rejects is written as an escape (`\n`,
/// `\r`, `\t`, else `\u{1b}`, `\u{202e}`, …), so a message quoting user
/// input can neither colour, move the cursor, start a new log line (a
/// forged `::error` workflow command) nor reorder what follows it. The one
/// escaping function of the human, short and github outputs: summaries,
/// details, labels, help, related messages and file names all pass
/// through it. Borrowed when nothing needs escaping.
pub fn escape(text: &str) -> Cow<'_, str> {
    if plain_ascii(text, false) || !text.chars().any(is_unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unsafe_char(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// `path` made safe for one line, as [`escape`] does for text; a byte that
/// is not UTF-8 (a name is any bytes on Unix) is written `\xNN` rather than
/// replaced, so two such names stay apart.
pub fn escape_path(path: &std::path::Path) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let mut out = String::new();
        for chunk in path.as_os_str().as_bytes().utf8_chunks() {
            out.push_str(&escape(chunk.valid()));
            for byte in chunk.invalid() {
                let _ = write!(out, "\\x{byte:02x}");
            }
        }
        out
    }
    #[cfg(not(unix))]
    {
        escape(&path.to_string_lossy()).into_owned()
    }
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
        self.sources
            .get(*id)
            .map(|file| escape(file.name()).into_owned())
    }
}

/// A line longer than this many bytes is shown as windows around the
/// places the diagnostic points at (a 10 MB line is not printed whole).
const LONG_LINE: usize = 400;
/// Bytes kept on each side of a label's start and end in a long line.
const CONTEXT: usize = 80;
/// What stands for the bytes left out of a long line.
const ELLIPSIS: &str = "\u{2026}";

/// The part of a file one diagnostic's snippet shows, as ariadne gets it:
/// the lines from the first to the last line a label starts or ends on,
/// those lines [`printable`] and every one longer than [`LONG_LINE`] cut
/// down to windows of [`CONTEXT`] bytes around the points on it (the gaps
/// marked with [`ELLIPSIS`]), and the lines between them left empty
/// (ariadne never prints a line without a label). Building it costs the
/// lines it spans, not the file: the file's [`crate::LineIndex`] (built
/// once per file) finds the lines. Ariadne numbers the view's lines from
/// 1; [`renumber`] puts the file's numbers back.
struct View {
    source: Source<String>,
    /// The file's 0-based line number of the view's first line.
    first_line: usize,
    /// The lines that hold points, by line number.
    lines: Vec<ViewLine>,
}

/// One line of a [`View`] that holds points.
struct ViewLine {
    /// 0-based line number in the file.
    line: usize,
    /// Where the line starts in the file and in the view.
    file_start: usize,
    view_start: usize,
    /// `(start, end)` of each left-out byte range of the line, in order;
    /// each is replaced by one [`ELLIPSIS`].
    cuts: Vec<(usize, usize)>,
}

impl View {
    fn new(file: &SourceFile, points: &[usize]) -> View {
        let text = file.text();
        let index = file.line_index();
        let mut numbers: Vec<usize> = points.iter().map(|&p| index.line_of(p)).collect();
        numbers.sort_unstable();
        numbers.dedup();
        let mut first_line = numbers.first().copied().unwrap_or(0);
        let mut shown = String::new();
        // Ariadne draws the help and note rows' margin from the source's
        // first line (a multi-line label starting right after it shows a
        // bar there): keep that line's relation to the labels. The file's
        // first line itself when the labels start on the second, else two
        // empty lines standing for the lines before the first shown one.
        if first_line == 1 {
            numbers.insert(0, 0);
            first_line = 0;
        } else if first_line >= 2 {
            shown.push_str("\n\n");
            first_line -= 2;
        }
        let mut lines = Vec::with_capacity(numbers.len());
        let mut previous: Option<usize> = None;
        for line in numbers {
            if let Some(p) = previous {
                // The lines between two shown ones, empty.
                for _ in p + 1..line {
                    shown.push('\n');
                }
            }
            previous = Some(line);
            let Some(range) = index.line_range(line, text.len()) else {
                continue;
            };
            let body = text.get(range.clone()).unwrap_or("");
            let content_end = range.start + body.trim_end_matches(['\n', '\r']).len();
            let mut cuts = Vec::new();
            if content_end - range.start > LONG_LINE {
                long_line_cuts(text, range.start, content_end, points, &mut cuts);
            }
            let view_start = shown.len();
            let mut at = range.start;
            for &(start, end) in &cuts {
                shown.push_str(&printable(text.get(at..start).unwrap_or("")));
                shown.push_str(ELLIPSIS);
                at = end;
            }
            shown.push_str(&printable(text.get(at..range.end).unwrap_or("")));
            lines.push(ViewLine {
                line,
                file_start: range.start,
                view_start,
                cuts,
            });
        }
        View {
            source: Source::from(shown),
            first_line,
            lines,
        }
    }

    /// The view offset of the file offset `offset`, one of the points the
    /// view was built for (one inside a cut maps to the start of its
    /// ellipsis).
    fn offset(&self, index: &crate::LineIndex, offset: usize) -> usize {
        let line = index.line_of(offset);
        let Ok(i) = self.lines.binary_search_by_key(&line, |l| l.line) else {
            return 0;
        };
        let Some(l) = self.lines.get(i) else {
            return 0;
        };
        let mut shift: isize = 0;
        for &(start, end) in &l.cuts {
            if offset < end {
                if offset > start {
                    return (l.view_start + (start - l.file_start)).saturating_add_signed(shift);
                }
                break;
            }
            shift += ELLIPSIS.len() as isize - (end - start) as isize;
        }
        (l.view_start + offset.saturating_sub(l.file_start)).saturating_add_signed(shift)
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

/// `text` as it may be shown in a snippet: every character
/// [`is_unsafe_char`] rejects, and that ariadne would take for a line
/// break while [`crate::LineIndex`] does not, except tab, line feed and the
/// carriage return of a CRLF, becomes a visible stand-in of the same UTF-8
/// length (`?`, `¿`, U+FFFD, U+1F6C7), so byte offsets, line numbers and
/// carets stay exact and no escape sequence or bidi override from the
/// input reaches the terminal.
fn printable(text: &str) -> Cow<'_, str> {
    let keep = |c: char, next: Option<char>| match c {
        '\n' | '\t' => true,
        '\r' => next == Some('\n'),
        c => !is_unsafe_char(c),
    };
    if plain_ascii(text, true) {
        return Cow::Borrowed(text);
    }
    let mut chars = text.chars().peekable();
    let mut clean = true;
    while let Some(c) = chars.next() {
        if !keep(c, chars.peek().copied()) {
            clean = false;
            break;
        }
    }
    if clean {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if keep(c, chars.peek().copied()) {
            out.push(c);
        } else {
            out.push(match c.len_utf8() {
                1 => '?',
                2 => '\u{bf}',
                3 => char::REPLACEMENT_CHARACTER,
                _ => '\u{1f6c7}',
            });
        }
    }
    Cow::Owned(out)
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

/// Renders one diagnostic to a string, in time proportional to its
/// snippet (the lines its labels span), not to the size of its files.
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
        .related()
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
    let empty = SourceFile::new("", "");
    let file_of = |f: FileId| sources.get(f).unwrap_or(&empty);
    let views: Vec<(FileId, View)> = shown
        .iter()
        .map(|(f, points, _)| (*f, View::new(file_of(*f), points)))
        .collect();
    let map = |f: FileId, r: &Range<usize>| match views.iter().find(|(g, _)| *g == f) {
        Some((_, v)) => {
            let index = file_of(f).line_index();
            v.offset(index, r.start)..v.offset(index, r.end)
        }
        None => r.clone(),
    };
    // The primary label repeats the summary when there is no detail:
    // ariadne draws a label only with a message, and the underline must
    // show where the problem is.
    let label = AriadneLabel::new((file, map(file, &primary))).with_message(escape(
        diagnostic.detail().unwrap_or(diagnostic.summary.as_str()),
    ));
    let mut builder = Report::build(kind, (file, map(file, &primary)))
        .with_config(config)
        .with_code(escape(diagnostic.code.as_str()))
        .with_message(escape(&diagnostic.summary))
        .with_label(label);
    for (l, (f, range)) in diagnostic.related().iter().zip(&related) {
        builder = builder
            .with_label(AriadneLabel::new((*f, map(*f, range))).with_message(escape(&l.message)));
    }
    for help in diagnostic.help() {
        builder = builder.with_help(escape(help));
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
    if diagnostic.severity == Severity::Note {
        // Ariadne calls a note `Advice`; every other format says `note`.
        // The kind is the first word of the header after the code.
        let header_end = out.find('\n').unwrap_or(out.len());
        if let Some(at) = out[..header_end].find("Advice:") {
            out.replace_range(at..at + "Advice".len(), "Note");
        }
    }
    let groups: Vec<Group> = shown
        .iter()
        .zip(&views)
        .map(|((f, _, at), (_, view))| {
            let file = file_of(*f);
            let position = file.position(u32::try_from(*at).unwrap_or(u32::MAX));
            Group {
                first_line: view.first_line,
                name: escape(file.name()).into_owned(),
                line: position.line,
                column: position.column,
            }
        })
        .collect();
    renumber(&out, &groups)
}

/// What [`renumber`] needs to know of one file section of a report.
struct Group {
    /// The file's 0-based line number of the view's first line.
    first_line: usize,
    /// The file name as ariadne shows it.
    name: String,
    /// The position the section's header names, in the file.
    line: u32,
    column: u32,
}

/// The length of the margin's lead of `line`: its leading spaces and ANSI
/// escape sequences (colour), and the end of the last escape sequence in
/// it (0 when there is none).
fn lead_of(line: &str) -> (usize, usize) {
    let mut at = 0;
    let mut last_code_end = 0;
    loop {
        let rest = line.get(at..).unwrap_or("");
        if rest.starts_with(' ') {
            at += 1;
        } else if rest.starts_with("\u{1b}[") {
            match rest.find('m') {
                Some(m) => {
                    at += m + 1;
                    last_code_end = at;
                }
                None => break,
            }
        } else {
            break;
        }
    }
    (at, last_code_end)
}

/// Ariadne's report for views, with the files' line numbers: each numbered
/// margin line gets its file's line number, every margin is widened to the
/// widest number, and each section header names its position in the file
/// (line and grapheme column, as every other format counts them). Ariadne
/// 0.5 numbers a source's lines from 1 and sizes its margin to them
/// (`Source::with_display_line_offset` changes only the header). The
/// result is byte for byte what ariadne prints given the whole files.
fn renumber(report: &str, groups: &[Group]) -> String {
    enum Kind<'a> {
        First,
        /// A numbered margin line: the file's line number, the text after
        /// the number.
        Numbered(usize, &'a str),
        Header,
        Other,
    }
    struct Line<'a> {
        lead: &'a str,
        code_end: usize,
        rest: &'a str,
        kind: Kind<'a>,
    }
    let mut lines = Vec::new();
    let mut group: Option<&Group> = None;
    let mut group_index = 0;
    let mut local_width = None;
    let mut width = 0;
    for (i, raw) in report.split_inclusive('\n').enumerate() {
        let (lead_len, code_end) = lead_of(raw);
        let lead = raw.get(..lead_len).unwrap_or("");
        let rest = raw.get(lead_len..).unwrap_or("");
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let kind = if i == 0 {
            Kind::First
        } else if matches!(rest.chars().next(), Some('╭' | '├')) {
            group = groups.get(group_index);
            group_index += 1;
            let spaces = lead.bytes().filter(|&b| b == b' ').count();
            local_width.get_or_insert(spaces.saturating_sub(2));
            Kind::Header
        } else if let (true, Some(g)) = (digits > 0, group) {
            let n = rest
                .get(..digits)
                .and_then(|d| d.parse::<usize>().ok())
                .unwrap_or(0)
                + g.first_line;
            width = width.max(n.to_string().len());
            Kind::Numbered(n, rest.get(digits..).unwrap_or(""))
        } else {
            Kind::Other
        };
        lines.push(Line {
            lead,
            code_end,
            rest,
            kind,
        });
    }
    let local_width = local_width.unwrap_or(0);
    let width = width.max(local_width);
    let delta = width - local_width;
    let mut out = String::with_capacity(report.len() + lines.len() * delta);
    let mut group_index = 0;
    for line in &lines {
        match line.kind {
            Kind::First => {
                out.push_str(line.lead);
                out.push_str(line.rest);
            }
            Kind::Numbered(n, after) => {
                // Ariadne writes a space, then (coloured) the number
                // right-aligned in the margin's width.
                let head = if line.code_end > 0 {
                    line.lead.get(..line.code_end).unwrap_or("")
                } else {
                    line.lead.get(..1).unwrap_or("")
                };
                let n = n.to_string();
                out.push_str(head);
                out.push_str(&" ".repeat(width.saturating_sub(n.len())));
                out.push_str(&n);
                out.push_str(after);
            }
            Kind::Header => {
                push_widened(&mut out, line.lead, delta);
                let g = groups.get(group_index);
                group_index += 1;
                match g {
                    Some(g) => out.push_str(&fix_header(line.rest, g)),
                    None => out.push_str(line.rest),
                }
            }
            Kind::Other => {
                if line.rest.starts_with('─') {
                    out.push_str(line.lead);
                    out.push_str(&"─".repeat(delta));
                } else {
                    push_widened(&mut out, line.lead, delta);
                }
                out.push_str(line.rest);
            }
        }
    }
    out
}

/// Pushes a margin's `lead` with `delta` more spaces after its last space
/// (inside or outside its colour, as ariadne writes it).
fn push_widened(out: &mut String, lead: &str, delta: usize) {
    match lead.rfind(' ') {
        Some(at) => {
            out.push_str(lead.get(..=at).unwrap_or(""));
            out.push_str(&" ".repeat(delta));
            out.push_str(lead.get(at + 1..).unwrap_or(""));
        }
        None => out.push_str(lead),
    }
}

/// A section header `╭─[ name:L:C ]` with the group's position.
fn fix_header(header: &str, group: &Group) -> String {
    let needle = format!(" {}:", group.name);
    let Some(at) = header.find(&needle) else {
        return header.to_string();
    };
    let from = at + needle.len();
    let rest = header.get(from..).unwrap_or("");
    let position_len = rest.len()
        - rest
            .trim_start_matches(|c: char| c.is_ascii_digit() || c == ':' || c == '?')
            .len();
    format!(
        "{}{}:{}{}",
        header.get(..from).unwrap_or(""),
        group.line,
        group.column,
        rest.get(position_len..).unwrap_or("")
    )
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

/// `path:line:col: severity[code]: summary`, every field [`escape`]d.
pub fn render_short(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
    let (name, line, column) = match sources.get(diagnostic.span.file) {
        Some(file) => {
            let pos = file.position(diagnostic.span.range.start);
            (escape(file.name()).into_owned(), pos.line, pos.column)
        }
        None => ("<unknown>".to_string(), 1, 1),
    };
    format!(
        "{name}:{line}:{column}: {}[{}]: {}",
        diagnostic.severity,
        escape(diagnostic.code.as_str()),
        escape(&diagnostic.summary)
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
        assert_eq!(
            diag.summary_with_suggestion(),
            "undefined variable c; did you mean `a`?"
        );
    }

    /// A note is a note in every format: ariadne's `Advice` never shows.
    #[test]
    fn notes_say_note_in_every_format() {
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", "a = 1\n");
        let diag = Diagnostic::new(
            Severity::Note,
            Code("some-note"),
            Span::new(file, TextRange::new(0, 1)),
            "Advice: a summary",
        );
        for color in [false, true] {
            let text = render(&diag, &sources, RenderOptions { color });
            let header = text.lines().next().unwrap_or_default();
            assert!(header.contains("Note:"), "{text}");
            assert!(!header.contains("] Advice:"), "{text}");
            assert!(header.contains("Advice: a summary"), "{text}");
        }
        assert!(render_short(&diag, &sources).contains(": note[some-note]: "));
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

    /// The ASCII fast paths decide every ASCII character as the full
    /// rules do, and text with one unsafe character anywhere still takes
    /// the full path.
    #[test]
    fn ascii_fast_paths_agree_with_the_full_rules() {
        for byte in 0u8..0x80 {
            let c = char::from(byte);
            let full = c.is_control() || is_format(c);
            assert_eq!(is_unsafe_char(c), full, "{byte:#x}");
            let text = format!("ab{c}cd");
            assert_eq!(plain_ascii(&text, false), !full, "{byte:#x}");
            assert_eq!(
                matches!(escape(&text), Cow::Borrowed(_)),
                !full,
                "{byte:#x}"
            );
            let line = matches!(c, '\n' | '\t');
            assert_eq!(plain_ascii(&text, true), !full || line, "{byte:#x}");
            assert_eq!(
                matches!(printable(&text), Cow::Borrowed(_)),
                !full || line,
                "{byte:#x}"
            );
        }
        assert_eq!(escape("plain \u{1b}[31m"), "plain \\u{1b}[31m");
        assert_eq!(escape("caf\u{e9} \u{202e}x"), "caf\u{e9} \\u{202e}x");
        assert_eq!(printable("a\u{7f}b"), "a?b");
    }

    #[test]
    fn every_field_is_escaped() {
        let evil =
            "\u{1b}[31m\r\n::warning file=x.pp::INJECTED\u{202e}\u{2066}\u{200f}\u{61c}\u{9b}";
        let mut sources = SourceMap::new();
        let file = sources.add(format!("a{evil}.pp"), "a = 1\nb = c\n");
        let other = sources.add(format!("b{evil}.pp"), "x = 1\n");
        let diag = Diagnostic::error(
            Code("undefined-variable"),
            Span::new(file, TextRange::new(10, 11)),
            format!("summary {evil}"),
        )
        .with_detail(format!("detail {evil}"))
        .with_related(
            Span::new(file, TextRange::new(0, 1)),
            format!("here {evil}"),
        )
        .with_related(
            Span::new(other, TextRange::new(0, 1)),
            format!("there {evil}"),
        )
        .with_help(format!("help {evil}"));
        let escaped = escape(evil);
        assert_eq!(
            escaped,
            "\\u{1b}[31m\\r\\n::warning file=x.pp::INJECTED\\u{202e}\\u{2066}\\u{200f}\\u{61c}\\u{9b}"
        );
        for color in [false, true] {
            let rendered = render(&diag, &sources, RenderOptions { color });
            for what in ["summary", "detail", "here", "there", "help"] {
                assert!(
                    rendered.contains(&format!("{what} {escaped}")),
                    "{what}: {rendered}"
                );
            }
            assert!(
                rendered.contains(&format!("a{escaped}.pp:2:5")),
                "{rendered}"
            );
            assert!(
                rendered.contains(&format!("b{escaped}.pp:1:1")),
                "{rendered}"
            );
            let raw: Vec<char> = rendered
                .chars()
                .filter(|&c| c != '\n' && c != '\u{1b}' && is_unsafe_char(c))
                .collect();
            assert!(raw.is_empty(), "{raw:?} in {rendered}");
            if !color {
                assert!(!rendered.contains('\u{1b}'), "{rendered}");
            }
            assert!(!rendered.lines().any(|l| l.starts_with("::")), "{rendered}");
        }
        let short = render_short(&diag, &sources);
        assert_eq!(
            short,
            format!("a{escaped}.pp:2:5: error[undefined-variable]: summary {escaped}")
        );
        // Snippets: bidi and format characters become same-length stand-ins.
        let text = "a = \"\u{202e}\u{2066}x\u{e0041}\u{ad}\"\n";
        assert_eq!(
            printable(text),
            "a = \"\u{fffd}\u{fffd}x\u{1f6c7}\u{bf}\"\n"
        );
        assert_eq!(printable(text).len(), text.len());
    }

    /// What ariadne prints for `diag` given whole files (the renderer
    /// before views): the oracle for files without long lines.
    fn whole_file_render(diag: &Diagnostic, sources: &SourceMap, color: bool) -> String {
        struct Whole(Vec<(FileId, String, Source<String>)>);
        impl ariadne::Cache<FileId> for Whole {
            type Storage = String;
            fn fetch(&mut self, id: &FileId) -> Result<&Source<String>, impl std::fmt::Debug> {
                self.0
                    .iter()
                    .find(|(f, _, _)| f == id)
                    .map(|(_, _, s)| s)
                    .ok_or("missing")
            }
            fn display<'b>(&self, id: &'b FileId) -> Option<impl std::fmt::Display + 'b> {
                self.0
                    .iter()
                    .find(|(f, _, _)| f == id)
                    .map(|(_, n, _)| n.clone())
            }
        }
        let files = Whole(
            sources
                .iter()
                .map(|(id, f)| {
                    (
                        id,
                        f.name().to_string(),
                        Source::from(printable(f.text()).into_owned()),
                    )
                })
                .collect(),
        );
        let range = |span: Span| (span.file, span.range.to_usize());
        let mut builder = Report::build(ReportKind::Error, range(diag.span))
            .with_config(
                Config::default()
                    .with_color(color)
                    .with_index_type(IndexType::Byte),
            )
            .with_code(diag.code.as_str())
            .with_message(&diag.summary)
            .with_label(AriadneLabel::new(range(diag.span)).with_message(&diag.summary));
        for l in diag.related() {
            builder = builder.with_label(AriadneLabel::new(range(l.span)).with_message(&l.message));
        }
        for h in diag.help() {
            builder = builder.with_help(h);
        }
        let mut out = Vec::new();
        let mut files = files;
        builder.finish().write(&mut files, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// A snippet is built from the lines its labels span, not the whole
    /// file, and prints exactly what ariadne prints given the whole file:
    /// the same line numbers (across digit boundaries), margins, headers,
    /// multi-line labels and related files, with and without colour.
    #[test]
    fn snippets_cost_their_lines_and_match_whole_file_rendering() {
        const LINES: usize = 120_000;
        let mut text = String::new();
        for i in 0..LINES {
            text.push_str(&format!("a{i} = b{i}\n"));
        }
        let starts: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let at = |line: usize| starts[line - 1];
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", text.as_str());
        let other = sources.add("other.pp", "x = 1\ny = 2\n");
        let span = |from: usize, to: usize| Span::new(file, TextRange::from_usize(from..to));
        let cases = [
            (1, 3, vec![]),
            (2, 4, vec![]),
            (3, 5, vec![]),
            (9, 10, vec![]),
            (10, 10, vec![(9, 10)]),
            (99, 100, vec![]),
            (100_000, 100_000, vec![(99_999, 99_999), (5, 5)]),
            (99_999, 100_001, vec![]),
            (LINES, LINES, vec![(1, 1)]),
        ];
        for (from, to, related) in cases {
            let start = at(from);
            let end = at(to) + 3;
            let mut diag =
                Diagnostic::error(Code("x"), span(start, end), "problem").with_help("help");
            for (f, t) in &related {
                diag = diag.with_related(span(at(*f), at(*t) + 2), format!("line {f}"));
            }
            diag = diag.with_related(Span::new(other, TextRange::new(6, 7)), "elsewhere");
            for color in [false, true] {
                let got = render(&diag, &sources, RenderOptions { color });
                let want = whole_file_render(&diag, &sources, color);
                assert_eq!(got, want, "lines {from}..{to} {related:?}");
            }
            let points = [start, end];
            let view = View::new(sources.get(file).unwrap(), &points);
            let spanned = text[start..end].len() + 200;
            assert!(view.source.text().len() <= spanned, "{from}..{to}");
        }
    }

    #[test]
    fn view_offsets_map_windows_exactly() {
        let text = format!(
            "{}ab{}cd{}",
            "x".repeat(500),
            "y".repeat(500),
            "z".repeat(500)
        );
        let file = SourceFile::new("main.pp", text.as_str());
        let points = [500, 1002];
        let view = View::new(&file, &points);
        let shown = view.source.text();
        assert!(shown.len() < 600, "{shown}");
        for p in points {
            let v = view.offset(file.line_index(), p);
            assert_eq!(&shown[v..v + 2], &text[p..p + 2], "{p}");
        }
        // A short file is not cut.
        let short = SourceFile::new("main.pp", "a = 1\n");
        let view = View::new(&short, &[0]);
        assert_eq!(view.source.text(), "a = 1\n");
        assert_eq!(view.offset(short.line_index(), 4), 4);
    }
}
