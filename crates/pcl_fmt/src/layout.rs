//! hclwrite's layout rules over a token sequence.
//!
//! The input is cut into lines (a line ends with a newline token or with a
//! `#`/`//` comment, which includes its line break), and each line into up
//! to three cells: the *lead*, the *assign* cell (from the first `=` after
//! the line's first token, when the rest of the line opens no bracket it
//! does not close) and the *comment* cell (a final comment after other
//! tokens). Then, as hclwrite does, and only by setting how many spaces
//! precede each token:
//!
//! 1. indentation: two spaces per open bracket level, counting the net
//!    brackets each line opens (one level per line however many it opens);
//! 2. spacing between the tokens of a cell ([`space_after`]);
//! 3. alignment: the `=` of consecutive lines with an assign cell line up
//!    one column after the longest lead, then the comments of consecutive
//!    lines with a comment cell line up one column after the longest code.
//!
//! Every pass is one walk over the lines, so the whole is linear.

use unicode_segmentation::UnicodeSegmentation;

use crate::tokens::{Kind, Tok};

/// One line: token indices `start..lead_end` (lead), `lead_end..assign_end`
/// (assign, maybe empty) and `assign_end..end` (comment, maybe empty).
#[derive(Clone, Copy, Debug)]
struct Line {
    start: usize,
    lead_end: usize,
    assign_end: usize,
    end: usize,
}

impl Line {
    fn has_assign(&self) -> bool {
        self.assign_end > self.lead_end
    }
    fn has_comment(&self) -> bool {
        self.end > self.assign_end
    }
}

/// Sets `spaces` of every token of `toks` (the tokens of `text`).
pub(crate) fn layout(text: &str, toks: &mut [Tok]) {
    let lines = lines(toks);
    indent(&lines, toks);
    spacing(&lines, toks);
    align(text, &lines, toks);
}

fn bracket_change(kind: Kind) -> i64 {
    match kind {
        Kind::OBrace
        | Kind::OBrack
        | Kind::OParen
        | Kind::TemplateControl
        | Kind::TemplateInterp => 1,
        Kind::CBrace | Kind::CBrack | Kind::CParen | Kind::TemplateSeqEnd => -1,
        _ => 0,
    }
}

fn lines(toks: &[Tok]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, tok) in toks.iter().enumerate() {
        if tok.ends_line {
            lines.push(cells(toks, start, i + 1));
            start = i + 1;
        }
    }
    lines.push(cells(toks, start, toks.len()));
    lines
}

/// Splits the line `start..end` into its cells.
fn cells(toks: &[Tok], start: usize, end: usize) -> Line {
    let mut line = Line {
        start,
        lead_end: end,
        assign_end: end,
        end,
    };
    let Some(line_toks) = toks.get(start..end) else {
        return line;
    };
    if line_toks.len() > 1 && line_toks.last().is_some_and(|t| t.kind == Kind::Comment) {
        line.lead_end = end - 1;
        line.assign_end = end - 1;
    }
    let lead = toks.get(start..line.lead_end).unwrap_or(&[]);
    if let Some(eq) = lead.iter().skip(1).position(|t| t.kind == Kind::Equal) {
        let eq = eq + 1;
        let net: i64 = lead.iter().skip(eq).map(|t| bracket_change(t.kind)).sum();
        if net == 0 {
            line.lead_end = start + eq;
        }
    }
    line
}

fn indent(lines: &[Line], toks: &mut [Tok]) {
    // Open levels, each with how many brackets opened it.
    let mut levels: Vec<i64> = Vec::new();
    for line in lines {
        if line.lead_end == line.start {
            continue;
        }
        let Some(first) = toks.get(line.start) else {
            continue;
        };
        if first.kind == Kind::Newline {
            set_spaces(toks, line.start, 0);
            continue;
        }
        let mut net = 0i64;
        for tok in toks.get(line.start..line.lead_end).unwrap_or(&[]) {
            net += bracket_change(tok.kind);
            if tok.kind == Kind::OHeredoc {
                break;
            }
        }
        for tok in toks.get(line.lead_end..line.assign_end).unwrap_or(&[]) {
            net += bracket_change(tok.kind);
        }
        let here = 2 * levels.len() as u32;
        if net > 0 {
            set_spaces(toks, line.start, here);
            levels.push(net);
            continue;
        }
        let mut closed = -net;
        while closed > 0 {
            let Some(top) = levels.last_mut() else { break };
            if closed < *top {
                *top -= closed;
                closed = 0;
            } else {
                closed -= *top;
                levels.pop();
            }
        }
        set_spaces(toks, line.start, 2 * levels.len() as u32);
    }
}

fn set_spaces(toks: &mut [Tok], i: usize, spaces: u32) {
    if let Some(tok) = toks.get_mut(i) {
        tok.spaces = spaces;
    }
}

fn spacing(lines: &[Line], toks: &mut [Tok]) {
    for line in lines {
        space_cell(toks, line.start, line.lead_end);
        if line.has_assign() {
            set_spaces(toks, line.lead_end, 1);
            space_cell(toks, line.lead_end, line.assign_end);
        }
    }
}

/// Sets the spaces between consecutive tokens of the cell `start..end`.
fn space_cell(toks: &mut [Tok], start: usize, end: usize) {
    for i in start..end.saturating_sub(1) {
        let before = if i > start {
            toks.get(i - 1).map(|t| t.kind)
        } else {
            None
        };
        let (Some(subject), Some(after)) = (toks.get(i).copied(), toks.get(i + 1).map(|t| t.kind))
        else {
            continue;
        };
        let spaces = u32::from(space_after(subject, before, after));
        set_spaces(toks, i + 1, spaces);
    }
}

/// Whether `subject` is followed by a space when `before` (`None` at the
/// start of a cell) precedes it and `after` follows it: hclwrite's rules,
/// in hclwrite's order (the first that applies decides).
fn space_after(subject: Tok, before: Option<Kind>, after: Kind) -> bool {
    use Kind as K;
    let s = subject.kind;
    if after == K::Newline {
        return false;
    }
    if s == K::Ident && after == K::OParen {
        return false;
    }
    // Namespaced function names (`provider::aws::arn_parse`): this rule is
    // hclwrite's since hcl 2.20, which added them.
    if (s == K::Ident && after == K::DoubleColon) || (s == K::DoubleColon && after == K::Ident) {
        return false;
    }
    if s == K::Dot || after == K::Dot {
        return false;
    }
    if after == K::Comma || after == K::Ellipsis {
        return false;
    }
    if s == K::Comma {
        return true;
    }
    if matches!(s, K::QuotedLit | K::StringLit | K::OQuote | K::OHeredoc)
        || matches!(after, K::QuotedLit | K::StringLit | K::CQuote | K::CHeredoc)
    {
        return false;
    }
    if subject.is_in && before == Some(K::Ident) {
        return true;
    }
    if after == K::OBrack && (matches!(s, K::Ident | K::NumberLit) || bracket_change(s) < 0) {
        return false;
    }
    if s == K::Bang {
        return false;
    }
    if s == K::Minus {
        return !matches!(
            before,
            None | Some(
                K::OParen
                    | K::OBrace
                    | K::OBrack
                    | K::Equal
                    | K::Colon
                    | K::Comma
                    | K::Question
                    | K::Plus
                    | K::Star
                    | K::Slash
                    | K::Percent
                    | K::Minus
                    | K::EqualOp
                    | K::NotEqual
                    | K::GreaterThan
                    | K::GreaterThanEq
                    | K::LessThan
                    | K::LessThanEq
                    | K::And
                    | K::Or
                    | K::Bang
            )
        );
    }
    if s == K::OBrace || after == K::CBrace {
        return !(s == K::OBrace && after == K::CBrace);
    }
    if matches!(s, K::TemplateInterp | K::TemplateControl) && after == K::OBrace {
        return true;
    }
    if s == K::CBrace && after == K::TemplateSeqEnd {
        return true;
    }
    if s == K::TemplateSeqEnd && matches!(after, K::TemplateInterp | K::TemplateControl) {
        return false;
    }
    if bracket_change(s) > 0 {
        return false;
    }
    if bracket_change(after) < 0 {
        return false;
    }
    true
}

/// Columns the tokens `start..end` take: their spaces plus their grapheme
/// clusters.
fn columns(text: &str, toks: &[Tok], start: usize, end: usize) -> usize {
    toks.get(start..end)
        .unwrap_or(&[])
        .iter()
        .map(|t| {
            let lexeme = text.get(t.start as usize..t.end as usize).unwrap_or("");
            t.spaces as usize + graphemes(lexeme)
        })
        .sum()
}

fn graphemes(s: &str) -> usize {
    if s.is_ascii() {
        // `\r\n` is one cluster; every other ASCII byte is one.
        s.len() - s.as_bytes().windows(2).filter(|w| w == b"\r\n").count()
    } else {
        s.graphemes(true).count()
    }
}

fn align(text: &str, lines: &[Line], toks: &mut [Tok]) {
    // `=` of consecutive lines with an assign cell, then the comments of
    // consecutive lines with a comment cell.
    align_cells(text, lines, toks, Line::has_assign, |l| l.lead_end);
    align_cells(text, lines, toks, Line::has_comment, |l| l.assign_end);
}

/// Pads the cell that starts at `cell(line)` so that it lines up across
/// each run of consecutive lines for which `has` holds.
fn align_cells(
    text: &str,
    lines: &[Line],
    toks: &mut [Tok],
    has: fn(&Line) -> bool,
    cell: fn(&Line) -> usize,
) {
    let mut i = 0;
    while i < lines.len() {
        let run_end = run(lines, i, has);
        if run_end == i {
            i += 1;
            continue;
        }
        let run = lines.get(i..run_end).unwrap_or(&[]);
        let widths: Vec<usize> = run
            .iter()
            .map(|l| columns(text, toks, l.start, cell(l)))
            .collect();
        let max = widths.iter().copied().max().unwrap_or(0);
        for (line, width) in run.iter().zip(widths) {
            set_spaces(toks, cell(line), (max - width + 1) as u32);
        }
        i = run_end;
    }
}

/// The end of the run of lines from `start` that satisfy `pred`.
fn run(lines: &[Line], start: usize, pred: fn(&Line) -> bool) -> usize {
    let mut end = start;
    while lines.get(end).is_some_and(pred) {
        end += 1;
    }
    end
}
