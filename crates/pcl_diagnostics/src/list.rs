//! [`DiagnosticList`]: the one place diagnostics of a file are collected,
//! with a limit per file.
//!
//! An input can hold a problem every two bytes (`=` on every line), and
//! no representation of a diagnostic is small enough for that: a 10 MB
//! file of errors would need hundreds of megabytes to report. Like javac
//! (`-Xmaxerrs`, 100) and clang (`-ferror-limit`, 20), pcl reports at most
//! [`MAX_DIAGNOSTICS_PER_FILE`] problems of one file, the first ones found;
//! past the limit the list only counts, by severity, and when finished it
//! adds one `too-many-diagnostics` summary per file that went over. The
//! summary has the highest severity among the diagnostics it stands for,
//! so a dropped error still fails the file: verdicts and exit codes are
//! those of the full list.
//!
//! The parser, the syntax validation and the binder all collect into one
//! of these, so memory stays bounded while the problems are found, not
//! only after they are reported.

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::source::{FileId, Span, TextRange};

/// The most diagnostics kept for one file; the rest are counted in one
/// [`TOO_MANY_DIAGNOSTICS`] summary.
pub const MAX_DIAGNOSTICS_PER_FILE: usize = 1_000;

/// The code of the summary that stands for the diagnostics a file had
/// beyond [`MAX_DIAGNOSTICS_PER_FILE`].
pub const TOO_MANY_DIAGNOSTICS: Code = Code("too-many-diagnostics");

/// What the list knows of one file: how many of its diagnostics it keeps,
/// and how many it dropped, by severity (error, warning, note).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    kept: usize,
    dropped: [usize; 3],
}

impl Tally {
    fn dropped_total(&self) -> usize {
        self.dropped.iter().sum()
    }

    /// The highest severity among the dropped diagnostics.
    fn dropped_severity(&self) -> Option<Severity> {
        [Severity::Error, Severity::Warning, Severity::Note]
            .into_iter()
            .find(|s| self.dropped[rank(*s)] > 0)
    }
}

fn rank(severity: Severity) -> usize {
    match severity {
        Severity::Error => 0,
        Severity::Warning => 1,
        Severity::Note => 2,
    }
}

/// Diagnostics in the order they were found, at most a limit per file
/// ([`MAX_DIAGNOSTICS_PER_FILE`] unless made with [`Self::with_limit`]).
///
/// It reads as the slice of the diagnostics it keeps. [`Self::seal`] adds
/// the summaries of the files that went over the limit at the end (after
/// the last kept diagnostic); any change afterwards takes them off again
/// first, so a sealed list can be appended to another or pushed to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagnosticList {
    kept: Vec<Diagnostic>,
    tallies: HashMap<FileId, Tally>,
    limit: usize,
    /// How many summaries [`Self::seal`] put at the end of `kept`.
    summaries: usize,
    /// Ranges whose diagnostics are suppressed on purpose (see
    /// [`Self::quiet_within`]), sorted by file and start.
    quiet: Vec<(FileId, TextRange)>,
}

impl Default for DiagnosticList {
    fn default() -> Self {
        DiagnosticList::new()
    }
}

impl DiagnosticList {
    /// An empty list with the limit [`MAX_DIAGNOSTICS_PER_FILE`].
    pub fn new() -> DiagnosticList {
        DiagnosticList::with_limit(MAX_DIAGNOSTICS_PER_FILE)
    }

    /// An empty list keeping at most `limit` diagnostics per file (tests
    /// use a small one to reach it with a small input).
    pub fn with_limit(limit: usize) -> DiagnosticList {
        DiagnosticList {
            kept: Vec::new(),
            tallies: HashMap::new(),
            limit,
            summaries: 0,
            quiet: Vec::new(),
        }
    }

    /// From now on, a diagnostic that starts inside one of `ranges` (an
    /// item a syntax error left incomplete, whose other problems only
    /// follow from that error: one mistake, one diagnostic) is discarded
    /// when pushed: neither kept nor counted among the problems the limit
    /// leaves out. The ranges of one file must not overlap.
    pub fn quiet_within(&mut self, mut ranges: Vec<(FileId, TextRange)>) {
        ranges.sort_unstable_by_key(|(f, r)| (*f, r.start, r.end));
        self.quiet = ranges;
    }

    /// Whether `span` starts inside a range of [`Self::quiet_within`].
    fn is_quiet(&self, span: Span) -> bool {
        let at = (span.file, span.range.start);
        let after = self.quiet.partition_point(|(f, r)| (*f, r.start) <= at);
        after
            .checked_sub(1)
            .and_then(|i| self.quiet.get(i))
            .is_some_and(|(f, r)| *f == span.file && span.range.start <= r.end)
    }

    /// The per-file limit.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Adds `diagnostic` if its file is under the limit, returning its
    /// index in the list; otherwise only counts it and returns `None`
    /// (and a diagnostic in a range of [`Self::quiet_within`] is neither
    /// added nor counted).
    pub fn push(&mut self, diagnostic: Diagnostic) -> Option<usize> {
        self.unseal();
        if !self.quiet.is_empty() && self.is_quiet(diagnostic.span) {
            return None;
        }
        let tally = self.tallies.entry(diagnostic.span.file).or_default();
        if tally.kept >= self.limit {
            tally.dropped[rank(diagnostic.severity)] += 1;
            return None;
        }
        tally.kept += 1;
        self.kept.push(diagnostic);
        Some(self.kept.len() - 1)
    }

    /// Whether `file` is at the limit: a diagnostic pushed for it now is
    /// only counted.
    pub fn is_full(&self, file: FileId) -> bool {
        self.tallies
            .get(&file)
            .is_some_and(|t| t.kept >= self.limit)
    }

    /// How many diagnostics were dropped, over every file.
    pub fn dropped(&self) -> usize {
        self.tallies.values().map(Tally::dropped_total).sum()
    }

    /// Moves `other`'s diagnostics to the end of this list, under this
    /// list's limit, and adds what `other` dropped to this list's counts.
    pub fn append(&mut self, mut other: DiagnosticList) {
        other.unseal();
        if self.kept.is_empty()
            && self.tallies.is_empty()
            && self.quiet.is_empty()
            && other.limit == self.limit
        {
            // Nothing to interleave, count twice or quiet: take the list
            // whole.
            *self = other;
            return;
        }
        self.add_dropped(&other.tallies);
        for d in other.kept {
            self.push(d);
        }
    }

    /// Merges `other` (ordered by position, like this list) into this list
    /// by position: each of `other`'s diagnostics goes after every one of
    /// this list that starts at or before it. Since both lists keep the
    /// first diagnostics of each file, the merged list keeps the first
    /// ones of the merged order, as if it had collected them all.
    pub fn merge_by_position(&mut self, mut other: DiagnosticList) {
        other.unseal();
        if self.kept.is_empty()
            && self.tallies.is_empty()
            && self.quiet.is_empty()
            && other.limit == self.limit
        {
            *self = other;
            return;
        }
        self.unseal();
        let mut merged = DiagnosticList::with_limit(self.limit);
        merged.quiet = std::mem::take(&mut self.quiet);
        merged.kept.reserve(self.kept.len() + other.kept.len());
        merged.add_dropped(&self.tallies);
        merged.add_dropped(&other.tallies);
        let mut mine = std::mem::take(&mut self.kept).into_iter().peekable();
        for d in other.kept {
            while let Some(p) = mine.next_if(|p| p.span.range.start <= d.span.range.start) {
                merged.push(p);
            }
            merged.push(d);
        }
        for p in mine {
            merged.push(p);
        }
        *self = merged;
    }

    /// Keeps only the diagnostics for which `keep` is true (the dropped
    /// ones stay counted).
    pub fn retain(&mut self, mut keep: impl FnMut(&Diagnostic) -> bool) {
        self.unseal();
        let tallies = &mut self.tallies;
        self.kept.retain(|d| {
            let kept = keep(d);
            if !kept {
                if let Some(t) = tallies.get_mut(&d.span.file) {
                    t.kept = t.kept.saturating_sub(1);
                }
            }
            kept
        });
    }

    /// Counts a dropped diagnostic of `file` as `to` rather than `from`
    /// (for a warning made an error after it was found).
    pub fn reclassify_dropped(&mut self, file: FileId, from: Severity, to: Severity) {
        self.unseal();
        if let Some(t) = self.tallies.get_mut(&file) {
            if t.dropped[rank(from)] > 0 {
                t.dropped[rank(from)] -= 1;
                t.dropped[rank(to)] += 1;
            }
        }
    }

    /// Adds one summary for every file that went over the limit, after the
    /// last kept diagnostic (files in id order). Sealing twice adds them
    /// once.
    pub fn seal(&mut self) {
        if self.summaries > 0 {
            return;
        }
        let mut over: Vec<(FileId, Tally)> = self
            .tallies
            .iter()
            .filter(|(_, t)| t.dropped_total() > 0)
            .map(|(f, t)| (*f, *t))
            .collect();
        if over.is_empty() {
            return;
        }
        over.sort_unstable_by_key(|(f, _)| *f);
        // Each summary is put at its file's last kept diagnostic (by
        // position), so a renderer shows where the list stops.
        let mut last: HashMap<FileId, Span> = HashMap::new();
        for d in &self.kept {
            let span = last.entry(d.span.file).or_insert(d.span);
            if (d.span.range.start, d.span.range.end) > (span.range.start, span.range.end) {
                *span = d.span;
            }
        }
        for (file, tally) in over {
            let Some(severity) = tally.dropped_severity() else {
                continue;
            };
            let span = last
                .get(&file)
                .copied()
                .unwrap_or(Span::new(file, TextRange::empty(0)));
            self.kept.push(summary(span, severity, &tally, self.limit));
            self.summaries += 1;
        }
    }

    /// The diagnostics, sealed (see [`Self::seal`]).
    pub fn into_vec(mut self) -> Vec<Diagnostic> {
        self.seal();
        self.kept
    }

    /// Takes off the summaries [`Self::seal`] added.
    fn unseal(&mut self) {
        if self.summaries > 0 {
            let len = self.kept.len().saturating_sub(self.summaries);
            self.kept.truncate(len);
            self.summaries = 0;
        }
    }

    fn add_dropped(&mut self, tallies: &HashMap<FileId, Tally>) {
        for (file, t) in tallies {
            if t.dropped_total() > 0 {
                let mine = self.tallies.entry(*file).or_default();
                for (m, d) in mine.dropped.iter_mut().zip(t.dropped) {
                    *m += d;
                }
            }
        }
    }
}

impl Deref for DiagnosticList {
    type Target = [Diagnostic];

    fn deref(&self) -> &[Diagnostic] {
        &self.kept
    }
}

/// Editing kept diagnostics in place (a severity, a span) leaves the
/// counts as they are.
impl DerefMut for DiagnosticList {
    fn deref_mut(&mut self) -> &mut [Diagnostic] {
        &mut self.kept
    }
}

impl Extend<Diagnostic> for DiagnosticList {
    fn extend<I: IntoIterator<Item = Diagnostic>>(&mut self, iter: I) {
        for d in iter {
            self.push(d);
        }
    }
}

impl From<DiagnosticList> for Vec<Diagnostic> {
    fn from(list: DiagnosticList) -> Vec<Diagnostic> {
        list.into_vec()
    }
}

/// Adds `added` to a finished list (one [`DiagnosticList::into_vec`] gave,
/// summaries included) under the same per-file limit: a file keeps at most
/// `limit` diagnostics besides its summary, and what goes past is counted
/// in the file's one [`TOO_MANY_DIAGNOSTICS`] summary, which is updated
/// (or added) with the count and the highest severity. For diagnostics made
/// after checking, such as `unused-ignore` warnings. Linear in the two
/// lists.
pub fn extend_capped(
    diagnostics: &mut Vec<Diagnostic>,
    added: impl IntoIterator<Item = Diagnostic>,
    limit: usize,
) {
    let mut kept: HashMap<FileId, usize> = HashMap::new();
    for d in diagnostics.iter() {
        if d.code != TOO_MANY_DIAGNOSTICS {
            *kept.entry(d.span.file).or_default() += 1;
        }
    }
    let mut over: HashMap<FileId, Tally> = HashMap::new();
    for d in added {
        let n = kept.entry(d.span.file).or_default();
        if *n >= limit {
            over.entry(d.span.file).or_default().dropped[rank(d.severity)] += 1;
        } else {
            *n += 1;
            diagnostics.push(d);
        }
    }
    if over.is_empty() {
        return;
    }
    let mut over: Vec<(FileId, Tally)> = over.into_iter().collect();
    over.sort_unstable_by_key(|(f, _)| *f);
    for (file, mut tally) in over {
        // The file's summary so far: its count and severity join the new ones.
        if let Some(i) = diagnostics
            .iter()
            .position(|d| d.code == TOO_MANY_DIAGNOSTICS && d.span.file == file)
        {
            let old = diagnostics.remove(i);
            tally.dropped[rank(old.severity)] += summary_count(&old.summary);
        }
        let Some(severity) = tally.dropped_severity() else {
            continue;
        };
        let span = diagnostics
            .iter()
            .filter(|d| d.span.file == file)
            .map(|d| d.span)
            .max_by_key(|s| (s.range.start, s.range.end))
            .unwrap_or(Span::new(file, TextRange::empty(0)));
        diagnostics.push(summary(span, severity, &tally, limit));
    }
}

/// The number a summary's text starts with (`1,234 more problems …`).
fn summary_count(text: &str) -> usize {
    let digits: String = text
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().unwrap_or(0)
}

/// The summary of the `tally.dropped_total()` diagnostics of a file that
/// were not kept.
fn summary(span: Span, severity: Severity, tally: &Tally, limit: usize) -> Diagnostic {
    let n = tally.dropped_total();
    let (problems, are) = if n == 1 {
        ("problem", "is")
    } else {
        ("problems", "are")
    };
    Diagnostic::new(
        severity,
        TOO_MANY_DIAGNOSTICS,
        span,
        format!(
            "{} more {problems} in this file {are} not shown (pcl reports at most {} per file); \
             fix the ones above and check again",
            thousands(n),
            thousands(limit)
        ),
    )
}

/// `n` with a comma between groups of three digits: `1,234,567`.
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODE: Code = Code("test-code");

    fn at(file: u32, start: u32, severity: Severity) -> Diagnostic {
        let span = Span::new(FileId(file), TextRange::new(start, start + 1));
        Diagnostic::new(severity, CODE, span, format!("problem at {start}"))
    }

    fn starts(list: &[Diagnostic]) -> Vec<(u32, &'static str)> {
        list.iter()
            .map(|d| (d.span.range.start, d.code.as_str()))
            .collect()
    }

    #[test]
    fn quiet_ranges_are_neither_kept_nor_counted() {
        let mut list = DiagnosticList::with_limit(1);
        list.push(at(0, 0, Severity::Error));
        list.quiet_within(vec![(FileId(0), TextRange::new(10, 20))]);
        // Inside the range (its end included): gone, not dropped.
        assert_eq!(list.push(at(0, 10, Severity::Error)), None);
        assert_eq!(list.push(at(0, 20, Severity::Error)), None);
        assert_eq!(list.dropped(), 0);
        // Outside it, or in another file: the limit as before.
        assert_eq!(list.push(at(0, 21, Severity::Error)), None);
        assert_eq!(list.push(at(1, 15, Severity::Error)), Some(1));
        assert_eq!(list.dropped(), 1);
        // Appending or merging another list goes through the same filter.
        let mut other = DiagnosticList::with_limit(1);
        other.push(at(1, 12, Severity::Warning));
        let mut quiet = DiagnosticList::with_limit(5);
        quiet.quiet_within(vec![(FileId(1), TextRange::new(10, 20))]);
        quiet.append(other.clone());
        assert!(quiet.is_empty());
        quiet.merge_by_position(other);
        assert!(quiet.is_empty());
    }

    #[test]
    fn keeps_the_first_ones_per_file_then_counts() {
        let mut list = DiagnosticList::with_limit(2);
        assert_eq!(list.push(at(0, 0, Severity::Warning)), Some(0));
        assert_eq!(list.push(at(1, 5, Severity::Error)), Some(1));
        assert_eq!(list.push(at(0, 1, Severity::Warning)), Some(2));
        assert_eq!(list.push(at(0, 2, Severity::Warning)), None);
        assert_eq!(list.push(at(0, 3, Severity::Error)), None);
        assert_eq!(list.len(), 3);
        assert_eq!(list.dropped(), 2);
        let out = list.into_vec();
        assert_eq!(
            starts(&out),
            [
                (0, "test-code"),
                (5, "test-code"),
                (1, "test-code"),
                (1, "too-many-diagnostics")
            ]
        );
        let summary = &out[3];
        assert_eq!(summary.span.file, FileId(0));
        // An error among the dropped: the summary is an error.
        assert_eq!(summary.severity, Severity::Error);
        assert_eq!(
            summary.summary,
            "2 more problems in this file are not shown (pcl reports at most 2 per file); \
             fix the ones above and check again"
        );
    }

    #[test]
    fn diagnostics_added_later_join_the_limit_and_the_summary() {
        // File 0 went over the limit already; file 1 goes over now; file 2
        // stays under.
        let mut list = DiagnosticList::with_limit(2);
        for start in 0..5 {
            list.push(at(0, start, Severity::Error));
        }
        list.push(at(2, 0, Severity::Note));
        let mut out = list.into_vec();
        let added = (10..12)
            .map(|s| at(0, s, Severity::Warning))
            .chain((10..13).map(|s| at(1, s, Severity::Warning)))
            .chain([at(2, 10, Severity::Warning)]);
        extend_capped(&mut out, added, 2);
        let summaries: Vec<(u32, Severity, &str)> = out
            .iter()
            .filter(|d| d.code == TOO_MANY_DIAGNOSTICS)
            .map(|d| (d.span.file.0, d.severity, d.summary.as_str()))
            .collect();
        assert_eq!(
            summaries,
            [
                (
                    0,
                    Severity::Error,
                    "5 more problems in this file are not shown (pcl reports at most 2 per \
                     file); fix the ones above and check again"
                ),
                (
                    1,
                    Severity::Warning,
                    "1 more problem in this file is not shown (pcl reports at most 2 per \
                     file); fix the ones above and check again"
                ),
            ]
        );
        assert_eq!(out.len(), 2 + 2 + 2 + 2);
        assert_eq!(summary_count("1,234 more"), 1234);
    }

    #[test]
    fn the_summary_has_the_highest_dropped_severity() {
        let mut list = DiagnosticList::with_limit(1);
        list.push(at(0, 0, Severity::Error));
        list.push(at(0, 1, Severity::Note));
        list.push(at(0, 2, Severity::Warning));
        list.seal();
        let last = list.last().map(|d| (d.severity, d.summary.clone()));
        assert_eq!(
            last,
            Some((
                Severity::Warning,
                "2 more problems in this file are not shown (pcl reports at most 1 per file); \
                 fix the ones above and check again"
                    .to_string()
            ))
        );
        list.reclassify_dropped(FileId(0), Severity::Note, Severity::Error);
        assert_eq!(list.len(), 1, "a change takes the summary off");
        list.seal();
        list.seal();
        assert_eq!(list.len(), 2, "sealing twice adds one summary");
        assert_eq!(list.last().map(|d| d.severity), Some(Severity::Error));
    }

    #[test]
    fn a_list_under_the_limit_has_no_summary() {
        let mut list = DiagnosticList::with_limit(3);
        list.extend((0..3).map(|i| at(0, i, Severity::Error)));
        assert_eq!(list.into_vec().len(), 3);
    }

    #[test]
    fn one_dropped_problem_is_singular() {
        let mut list = DiagnosticList::with_limit(1);
        list.extend((0..2).map(|i| at(0, i, Severity::Note)));
        let out = list.into_vec();
        assert_eq!(out.len(), 2);
        assert!(out[1]
            .summary
            .starts_with("1 more problem in this file is not shown"));
        assert_eq!(out[1].severity, Severity::Note);
    }

    #[test]
    fn appending_a_sealed_list_counts_its_dropped_once() {
        let mut parse = DiagnosticList::with_limit(2);
        parse.extend((0..5).map(|i| at(0, i, Severity::Error)));
        parse.seal();
        let mut program = DiagnosticList::with_limit(2);
        program.push(at(1, 0, Severity::Warning));
        program.append(parse);
        program.push(at(0, 9, Severity::Error));
        assert_eq!(program.dropped(), 4);
        let out = program.into_vec();
        assert_eq!(out.len(), 4);
        assert!(out[3].summary.starts_with("4 more problems"));
    }

    #[test]
    fn merging_by_position_keeps_the_first_of_the_merged_order() {
        let mut parser = DiagnosticList::with_limit(3);
        parser.extend([0, 4, 8, 12].map(|i| at(0, i, Severity::Error)));
        let mut found = DiagnosticList::with_limit(3);
        found.extend([2, 4, 6, 10].map(|i| at(0, i, Severity::Warning)));
        parser.merge_by_position(found);
        let kept: Vec<u32> = parser.iter().map(|d| d.span.range.start).collect();
        assert_eq!(kept, [0, 2, 4]);
        // The parser's diagnostic at 4 comes before the one found at 4.
        assert_eq!(parser[2].severity, Severity::Error);
        assert_eq!(parser.dropped(), 5);
    }

    #[test]
    fn retain_frees_room_for_later_diagnostics() {
        let mut list = DiagnosticList::with_limit(2);
        list.extend((0..2).map(|i| at(0, i, Severity::Error)));
        list.retain(|d| d.span.range.start != 0);
        assert_eq!(list.push(at(0, 7, Severity::Error)), Some(1));
        assert_eq!(list.dropped(), 0);
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
