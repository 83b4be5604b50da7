//! The diagnostic model shared by every phase.
//!
//! A [`Diagnostic`] is plain data: a severity, a stable [`Code`], a one-line
//! summary, the primary [`Span`], and (boxed, as they are rare) an optional
//! detail, related locations, help lines and fixes. Phases build
//! diagnostics from their own typed errors; only [`crate::render`] knows
//! how they look on a terminal.

use std::fmt;

use crate::source::Span;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A stable, kebab-case diagnostic code such as `unterminated-template`.
///
/// Codes never change once released: tools match on them, and SARIF uses
/// them as rule ids. Each phase declares its codes as constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Code(pub &'static str);

impl Code {
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A secondary location with a message ("first defined here").
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A machine-applicable edit that fixes (or may fix) a diagnostic: replace
/// the text at `span` with `replacement`. Every did-you-mean carries one, so
/// editors can offer it as a quick fix and the JSON and SARIF outputs can
/// list it under `fixes`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Fix {
    /// A short imperative title, such as "replace `bukcet` with `bucket`".
    pub message: String,
    /// The text to replace (may be empty, for an insertion).
    pub span: Span,
    /// The new text.
    pub replacement: String,
}

/// One problem found in the input.
///
/// The parts every diagnostic has (severity, code, span, summary) are
/// fields; the rarely used ones (detail, related locations, help lines,
/// fixes) live behind one box, reached through accessors, so that a
/// diagnostic without them is 64 bytes. A file of errors holds one per
/// problem (up to [`crate::MAX_DIAGNOSTICS_PER_FILE`]), so the size counts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    /// Where the problem is.
    pub span: Span,
    /// A terse one-line description.
    pub summary: String,
    /// The optional parts; `None` when all of them are empty (never a box
    /// of empty parts, so that equality and hashing see one form).
    extra: Option<Box<Extra>>,
}

/// The optional parts of a [`Diagnostic`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Extra {
    /// Optional longer explanation.
    detail: Option<String>,
    /// Related locations, in a meaningful order (e.g. along a cycle).
    related: Vec<Label>,
    /// Suggestions such as "did you mean `name`?".
    help: Vec<String>,
    /// Machine-applicable edits, best first (see [`Fix`]).
    fixes: Vec<Fix>,
}

impl Extra {
    fn is_empty(&self) -> bool {
        self.detail.is_none()
            && self.related.is_empty()
            && self.help.is_empty()
            && self.fixes.is_empty()
    }
}

impl Diagnostic {
    pub fn new(severity: Severity, code: Code, span: Span, summary: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code,
            span,
            summary: summary.into(),
            extra: None,
        }
    }

    pub fn error(code: Code, span: Span, summary: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Error, code, span, summary)
    }

    pub fn warning(code: Code, span: Span, summary: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Warning, code, span, summary)
    }

    /// The longer explanation, if any.
    pub fn detail(&self) -> Option<&str> {
        self.extra.as_ref().and_then(|e| e.detail.as_deref())
    }

    /// Related locations, in a meaningful order (e.g. along a cycle).
    pub fn related(&self) -> &[Label] {
        self.extra.as_ref().map_or(&[], |e| &e.related)
    }

    /// The related locations, to edit in place (e.g. to adjust spans).
    pub fn related_mut(&mut self) -> &mut [Label] {
        match &mut self.extra {
            Some(e) => &mut e.related,
            None => &mut [],
        }
    }

    /// Moves every span of the diagnostic (its own, the related ones and
    /// the fixes') through `map`; `false`, leaving the diagnostic partly
    /// moved, when `map` has no place for one of them.
    pub fn map_spans(&mut self, map: &mut dyn FnMut(Span) -> Option<Span>) -> bool {
        let Some(span) = map(self.span) else {
            return false;
        };
        self.span = span;
        if let Some(extra) = &mut self.extra {
            for label in &mut extra.related {
                let Some(span) = map(label.span) else {
                    return false;
                };
                label.span = span;
            }
            for fix in &mut extra.fixes {
                let Some(span) = map(fix.span) else {
                    return false;
                };
                fix.span = span;
            }
        }
        true
    }

    /// Suggestions such as "did you mean `name`?".
    pub fn help(&self) -> &[String] {
        self.extra.as_ref().map_or(&[], |e| &e.help)
    }

    /// The summary with its did-you-mean, for one-line forms (`--format
    /// short`): `unknown property `b`; did you mean `a`?`. Other help
    /// (how to get a schema …) stays in the fuller formats.
    pub fn summary_with_suggestion(&self) -> std::borrow::Cow<'_, str> {
        match self.help().iter().find(|h| h.starts_with("did you mean")) {
            Some(h) if !self.summary.contains("did you mean") => {
                std::borrow::Cow::Owned(format!("{}; {h}", self.summary))
            }
            _ => std::borrow::Cow::Borrowed(self.summary.as_str()),
        }
    }

    /// Machine-applicable edits, best first (see [`Fix`]).
    pub fn fixes(&self) -> &[Fix] {
        self.extra.as_ref().map_or(&[], |e| &e.fixes)
    }

    /// Replaces the detail (`None` removes it).
    pub fn set_detail(&mut self, detail: Option<String>) {
        match detail {
            Some(detail) => self.extra_mut().detail = Some(detail),
            None => {
                if let Some(e) = &mut self.extra {
                    e.detail = None;
                }
                self.drop_empty_extra();
            }
        }
    }

    /// Removes every fix.
    pub fn clear_fixes(&mut self) {
        if let Some(e) = &mut self.extra {
            e.fixes = Vec::new();
        }
        self.drop_empty_extra();
    }

    fn extra_mut(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(Box::default)
    }

    fn drop_empty_extra(&mut self) {
        if self.extra.as_ref().is_some_and(|e| e.is_empty()) {
            self.extra = None;
        }
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.extra_mut().detail = Some(detail.into());
        self
    }

    pub fn with_related(mut self, span: Span, message: impl Into<String>) -> Self {
        let related = &mut self.extra_mut().related;
        // Most diagnostics carry one label: a first push would reserve four.
        related.reserve_exact(1);
        related.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.add_help(help);
        self
    }

    /// Adds a help line in place (see [`Self::with_help`]).
    pub fn add_help(&mut self, help: impl Into<String>) {
        let helps = &mut self.extra_mut().help;
        helps.reserve_exact(1);
        helps.push(help.into());
    }

    /// Adds a machine-applicable edit: replace `span` with `replacement`.
    pub fn with_fix(mut self, span: Span, replacement: impl Into<String>) -> Self {
        let replacement = replacement.into();
        let fixes = &mut self.extra_mut().fixes;
        fixes.reserve_exact(1);
        fixes.push(Fix {
            message: format!("replace with `{replacement}`"),
            span,
            replacement,
        });
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The key diagnostics are sorted by for output: file, position,
    /// severity, code, then text, so that output never depends on the order
    /// in which work happened. A file's `too-many-diagnostics` summary
    /// comes after every other diagnostic of the file (it stands for the
    /// ones not shown).
    pub fn sort_key(&self) -> (u32, bool, u32, u32, Severity, &'static str, &str) {
        (
            self.span.file.0,
            self.code == crate::list::TOO_MANY_DIAGNOSTICS,
            self.span.range.start,
            self.span.range.end,
            self.severity,
            self.code.0,
            &self.summary,
        )
    }
}

/// Sorts diagnostics deterministically and removes exact duplicates.
///
/// A list in order already (a file of syntax errors, which the parser
/// reports in order) is not sorted again: a stable sort allocates a buffer
/// of half the list, which is most of the memory such a check takes.
pub fn sort_and_dedup(diagnostics: &mut Vec<Diagnostic>) {
    let order = |a: &Diagnostic, b: &Diagnostic| {
        a.sort_key()
            .cmp(&b.sort_key())
            .then_with(|| a.detail().cmp(&b.detail()))
    };
    if !diagnostics.is_sorted_by(|a, b| order(a, b).is_le()) {
        diagnostics.sort_by(order);
    }
    diagnostics.dedup();
}

/// Counts of errors and warnings.
pub fn count(diagnostics: &[Diagnostic]) -> (usize, usize) {
    let errors = diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    (errors, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{FileId, TextRange};

    fn at(start: u32) -> Span {
        Span::new(FileId(0), TextRange::new(start, start + 1))
    }

    /// A file of errors holds one diagnostic per problem: the rare parts
    /// are boxed so that the common ones stay small.
    #[test]
    fn a_diagnostic_is_64_bytes() {
        assert_eq!(std::mem::size_of::<Diagnostic>(), 64);
    }

    #[test]
    fn the_optional_parts_read_back() {
        let d = Diagnostic::error(Code("c"), at(0), "summary");
        assert_eq!(
            (d.detail(), d.related(), d.help(), d.fixes()),
            (None, &[][..], &[][..], &[][..])
        );
        let d = d
            .with_detail("detail")
            .with_related(at(3), "here")
            .with_help("help")
            .with_fix(at(0), "x");
        assert_eq!(d.detail(), Some("detail"));
        assert_eq!(d.related()[0].message, "here");
        assert_eq!(d.help(), ["help"]);
        assert_eq!(d.fixes()[0].message, "replace with `x`");
    }

    /// Removing the last optional part frees the box, so a diagnostic
    /// equals (and hashes as) one that never had any.
    #[test]
    fn emptied_optional_parts_compare_equal_to_none() {
        let plain = Diagnostic::error(Code("c"), at(0), "summary");
        let mut d = plain.clone().with_detail("detail").with_fix(at(0), "x");
        d.set_detail(None);
        assert_ne!(d, plain);
        d.clear_fixes();
        assert_eq!(d, plain);
        d.set_detail(Some("again".into()));
        assert_eq!(d.detail(), Some("again"));
    }

    #[test]
    fn a_summary_of_dropped_diagnostics_sorts_last_in_its_file() {
        let summary = Diagnostic::error(crate::TOO_MANY_DIAGNOSTICS, at(0), "more");
        let mut diags = vec![
            summary.clone(),
            Diagnostic::warning(Code("z"), at(9), "late"),
        ];
        sort_and_dedup(&mut diags);
        assert_eq!(diags.last(), Some(&summary));
    }
}
