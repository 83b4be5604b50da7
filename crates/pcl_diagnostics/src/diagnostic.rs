//! The diagnostic model shared by every phase.
//!
//! A [`Diagnostic`] is plain data: a severity, a stable [`Code`], a one-line
//! summary, an optional detail, the primary [`Span`], related locations and
//! help lines. Phases build diagnostics from their own typed errors; only
//! [`crate::render`] knows how they look on a terminal.

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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    /// A terse one-line description.
    pub summary: String,
    /// Optional longer explanation.
    pub detail: Option<String>,
    /// Where the problem is.
    pub span: Span,
    /// Related locations, in a meaningful order (e.g. along a cycle).
    pub related: Vec<Label>,
    /// Suggestions such as "did you mean `name`?".
    pub help: Vec<String>,
    /// Machine-applicable edits, best first (see [`Fix`]).
    pub fixes: Vec<Fix>,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: Code, span: Span, summary: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code,
            summary: summary.into(),
            detail: None,
            span,
            related: Vec::new(),
            help: Vec::new(),
            fixes: Vec::new(),
        }
    }

    pub fn error(code: Code, span: Span, summary: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Error, code, span, summary)
    }

    pub fn warning(code: Code, span: Span, summary: impl Into<String>) -> Self {
        Diagnostic::new(Severity::Warning, code, span, summary)
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    pub fn with_related(mut self, span: Span, message: impl Into<String>) -> Self {
        // Most diagnostics carry one label: a first push would reserve four.
        self.related.reserve_exact(1);
        self.related.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help.reserve_exact(1);
        self.help.push(help.into());
        self
    }

    /// Adds a machine-applicable edit: replace `span` with `replacement`.
    pub fn with_fix(mut self, span: Span, replacement: impl Into<String>) -> Self {
        let replacement = replacement.into();
        self.fixes.reserve_exact(1);
        self.fixes.push(Fix {
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
    /// in which work happened.
    pub fn sort_key(&self) -> (u32, u32, u32, Severity, &'static str, &str) {
        (
            self.span.file.0,
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
            .then_with(|| a.detail.cmp(&b.detail))
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
