//! [`BindContext`]: the file, host environment, options and collected
//! diagnostics of one binding session.

use pcl_diagnostics::{Diagnostic, FileId, Severity, Span, TextRange};
use pcl_types::TypeDiagnostic;

use crate::env::{Environment, ExprOptions};

/// State shared by every expression bound in one file.
pub struct BindContext<'a> {
    file: FileId,
    env: &'a dyn Environment,
    options: &'a ExprOptions,
    diagnostics: Vec<Diagnostic>,
    /// Current recursion depth over expressions.
    pub(crate) depth: usize,
    /// Set when the depth limit was hit (reported once per expression).
    pub(crate) too_deep_reported: bool,
    /// Item types of the enclosing splats, innermost last, each with
    /// whether it comes from a traversal that already failed and was
    /// reported (then traversals of the item are not reported again).
    pub(crate) splat_items: Vec<(pcl_types::Type, bool)>,
    /// How many diagnostics were left out as repeats of a problem already
    /// reported (so that what follows from them is known to, too).
    pub(crate) repeats: usize,
    /// Literal values and their types, shared between equal literals.
    pub(crate) literals: pcl_types::LiteralTypes,
    /// Whether what this bind reports is kept (see
    /// [`BindContext::set_reports_dropped`]).
    reports_kept: bool,
}

impl<'a> BindContext<'a> {
    pub fn new(
        file: FileId,
        env: &'a dyn Environment,
        options: &'a ExprOptions,
    ) -> BindContext<'a> {
        BindContext {
            file,
            env,
            options,
            diagnostics: Vec::new(),
            depth: 0,
            too_deep_reported: false,
            splat_items: Vec::new(),
            repeats: 0,
            literals: pcl_types::LiteralTypes::new(),
            reports_kept: true,
        }
    }

    /// Tells the bind that the host will drop every diagnostic it
    /// reports (a file past its limit of diagnostics): it still reports
    /// them, to be counted, but does not search for suggestions to attach
    /// to them (a did-you-mean search over every definition costs more
    /// than the rest of binding a name).
    pub fn set_reports_dropped(&mut self, dropped: bool) {
        self.reports_kept = !dropped;
    }

    /// `find()`'s suggestions, or none when the reports are dropped.
    pub fn suggestions<'s>(&self, find: impl FnOnce() -> Vec<&'s str>) -> Vec<&'s str> {
        if self.reports_kept {
            find()
        } else {
            Vec::new()
        }
    }

    /// Hands the context a literal cache to use (and fill) while it binds,
    /// so equal literals of many expressions share their types; take it
    /// back with [`BindContext::take_literals`].
    pub fn lend_literals(&mut self, literals: pcl_types::LiteralTypes) {
        self.literals = literals;
    }

    /// The literal cache, taken out (an empty one is left in its place).
    pub fn take_literals(&mut self) -> pcl_types::LiteralTypes {
        std::mem::take(&mut self.literals)
    }

    pub fn file(&self) -> FileId {
        self.file
    }

    pub fn env(&self) -> &'a dyn Environment {
        self.env
    }

    pub fn options(&self) -> &'a ExprOptions {
        self.options
    }

    /// The diagnostics collected so far, in the order they were produced
    /// (children before parents, source order).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Removes and returns the collected diagnostics.
    pub fn take_diagnostics(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.diagnostics)
    }

    /// A span in this file; an empty range is widened to one byte so that
    /// every diagnostic points at something.
    pub fn span(&self, range: TextRange) -> Span {
        let range = if range.is_empty() {
            TextRange::new(range.start, range.start.saturating_add(1))
        } else {
            range
        };
        Span::new(self.file, range)
    }

    /// `InputType(t)`, through the environment (which may remember it).
    pub fn input_type(&self, t: &pcl_types::Type) -> pcl_types::Type {
        self.env.input_type(t)
    }

    /// Adds a diagnostic.
    pub fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Adds a type-layer diagnostic at `range`.
    pub fn report_type(&mut self, diagnostic: TypeDiagnostic, range: TextRange) {
        let span = self.span(range);
        self.diagnostics.push(diagnostic.into_diagnostic(span));
    }

    /// Number of diagnostics so far (to truncate with [`Self::truncate`]).
    pub(crate) fn mark(&self) -> usize {
        self.diagnostics.len()
    }

    /// Whether an error was reported after `mark`.
    pub(crate) fn errors_since(&self, mark: usize) -> bool {
        self.diagnostics
            .get(mark..)
            .is_some_and(|ds| ds.iter().any(|d| d.severity == Severity::Error))
    }

    /// Drops diagnostics produced after `mark`, returning them.
    pub(crate) fn split_off(&mut self, mark: usize) -> Vec<Diagnostic> {
        let at = mark.min(self.diagnostics.len());
        self.diagnostics.split_off(at)
    }
}
