//! The diagnostics of a `pcl check` run, resolved to positions and sorted,
//! and the five ways of printing them.
//!
//! [`Report`] owns every checked program. Its entries are sorted by file
//! name, then position (then program path and the binder's own order), so
//! every format prints the same sequence whatever order the programs were
//! checked in. `--max-diagnostics` keeps the first entries of that order.

pub mod github;
pub mod human;
pub mod json;
pub mod safe_json;
pub mod sarif;
pub mod short;

use pcl_binder::Program;
use pcl_diagnostics::{Diagnostic, Position, Severity, SourceMap, Span};

/// One checked program.
pub struct ProgramResult {
    /// The program's path as shown.
    pub path: String,
    pub program: Program,
    pub sources: SourceMap,
    /// Sorted diagnostics (the binder's plus `invalid-utf8`).
    pub diagnostics: Vec<Diagnostic>,
}

/// A problem with the run itself rather than with a program: a PATH that
/// cannot be read, a bad `pcl.toml`, a directory without programs. A run
/// with one is never a clean run (exit status 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunError {
    /// The path the problem is about, as shown (may be empty).
    pub path: String,
    /// What went wrong, one line.
    pub message: String,
}

impl RunError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        RunError {
            path: path.into(),
            message: message.into(),
        }
    }
}

/// A resolved location: file name and start and end positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loc {
    pub file: String,
    pub start: Position,
    pub end: Position,
}

impl Loc {
    /// Resolves `span` in `sources`.
    pub fn of(sources: &SourceMap, span: Span) -> Loc {
        match sources.get(span.file) {
            Some(file) => Loc {
                file: file.name().to_string(),
                start: file.position(span.range.start),
                end: file.position(span.range.end),
            },
            None => {
                let origin = Position {
                    line: 1,
                    column: 1,
                    byte: 0,
                };
                Loc {
                    file: "<unknown>".to_string(),
                    start: origin,
                    end: origin,
                }
            }
        }
    }
}

/// One diagnostic to print: which program, which diagnostic, where.
pub struct Entry {
    pub program: usize,
    pub index: usize,
    pub loc: Loc,
}

/// A diagnostic with everything a format needs.
pub struct Item<'a> {
    /// Index of the program in [`Report::programs`].
    pub program: usize,
    pub diagnostic: &'a Diagnostic,
    pub sources: &'a SourceMap,
    pub loc: &'a Loc,
    pub program_path: &'a str,
}

impl Item<'_> {
    /// Related locations, resolved, with their messages.
    pub fn related(&self) -> Vec<(Loc, &str)> {
        self.diagnostic
            .related()
            .iter()
            .map(|l| (Loc::of(self.sources, l.span), l.message.as_str()))
            .collect()
    }
}

/// All programs of a run and their sorted diagnostics.
pub struct Report {
    /// Sorted by path.
    pub programs: Vec<ProgramResult>,
    entries: Vec<Entry>,
    shown: usize,
    pub errors: usize,
    pub warnings: usize,
    pub deny_warnings: bool,
    /// Problems of the run itself, in the order they were found.
    pub run_errors: Vec<RunError>,
}

impl Report {
    /// Sorts programs and diagnostics; at most `max` entries are shown.
    pub fn new(mut programs: Vec<ProgramResult>, max: Option<usize>, deny_warnings: bool) -> Self {
        programs.sort_by(|a, b| a.path.cmp(&b.path));
        let mut entries = Vec::new();
        let (mut errors, mut warnings) = (0, 0);
        for (p, program) in programs.iter().enumerate() {
            for (i, d) in program.diagnostics.iter().enumerate() {
                match d.severity {
                    Severity::Error => errors += 1,
                    Severity::Warning => warnings += 1,
                    Severity::Note => {}
                }
                entries.push(Entry {
                    program: p,
                    index: i,
                    loc: Loc::of(&program.sources, d.span),
                });
            }
        }
        entries.sort_by(|a, b| {
            (
                &a.loc.file,
                a.loc.start.byte,
                a.loc.end.byte,
                a.program,
                a.index,
            )
                .cmp(&(
                    &b.loc.file,
                    b.loc.start.byte,
                    b.loc.end.byte,
                    b.program,
                    b.index,
                ))
        });
        let shown = max.map_or(entries.len(), |m| m.min(entries.len()));
        Report {
            programs,
            entries,
            shown,
            errors,
            warnings,
            deny_warnings,
            run_errors: Vec::new(),
        }
    }

    /// The report with the run's own errors.
    pub fn with_run_errors(mut self, run_errors: Vec<RunError>) -> Self {
        self.run_errors = run_errors;
        self
    }

    /// The entries to print, in order.
    pub fn items(&self) -> impl Iterator<Item = Item<'_>> {
        self.entries
            .iter()
            .take(self.shown)
            .filter_map(move |e| self.item(e))
    }

    fn item<'a>(&'a self, entry: &'a Entry) -> Option<Item<'a>> {
        let program = self.programs.get(entry.program)?;
        Some(Item {
            program: entry.program,
            diagnostic: program.diagnostics.get(entry.index)?,
            sources: &program.sources,
            loc: &entry.loc,
            program_path: &program.path,
        })
    }

    /// How many diagnostics `--max-diagnostics` left out.
    pub fn omitted(&self) -> usize {
        self.entries.len() - self.shown
    }

    /// Whether the run fails: errors, or warnings under `--deny warnings`.
    pub fn fails(&self) -> bool {
        self.errors > 0 || (self.deny_warnings && self.warnings > 0)
    }

    /// `2 errors, 1 warning in 3 programs`.
    pub fn summary(&self) -> String {
        let counts = summary(self.errors, self.warnings, self.programs.len());
        match self.run_errors.len() {
            0 => counts,
            n => run_error_summary(n, self.errors, self.warnings, self.programs.len()),
        }
    }

    /// `N more diagnostics not shown (--max-diagnostics M)`, when some were
    /// left out.
    pub fn omitted_note(&self) -> Option<String> {
        let n = self.omitted();
        (n > 0).then(|| {
            let what = if n == 1 { "diagnostic" } else { "diagnostics" };
            format!(
                "{n} more {what} not shown (--max-diagnostics {})",
                self.shown
            )
        })
    }
}

/// `2 errors, 1 warning in 3 programs`, or `no problems found in 1
/// program`.
pub fn summary(errors: usize, warnings: usize, programs: usize) -> String {
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    let programs = plural(programs, "program");
    if errors == 0 && warnings == 0 {
        return format!("no problems found in {programs}");
    }
    format!(
        "{}, {} in {programs}",
        plural(errors, "error"),
        plural(warnings, "warning")
    )
}

/// The summary of a run with run errors: never "no problems found".
/// `1 run error; 0 errors, 0 warnings in 0 programs`.
pub fn run_error_summary(
    run_errors: usize,
    errors: usize,
    warnings: usize,
    programs: usize,
) -> String {
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    format!(
        "{}; {}, {} in {}",
        plural(run_errors, "run error"),
        plural(errors, "error"),
        plural(warnings, "warning"),
        plural(programs, "program")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use pcl_diagnostics::{Code, TextRange};

    #[test]
    fn summary_wording() {
        assert_eq!(summary(0, 0, 1), "no problems found in 1 program");
        assert_eq!(summary(2, 1, 3), "2 errors, 1 warning in 3 programs");
        assert_eq!(summary(0, 2, 1), "0 errors, 2 warnings in 1 program");
        assert_eq!(
            run_error_summary(1, 0, 0, 0),
            "1 run error; 0 errors, 0 warnings in 0 programs"
        );
    }

    /// A program `path` with one file `file` and warnings at `offsets`.
    pub(crate) fn program(path: &str, file: &str, text: &str, offsets: &[u32]) -> ProgramResult {
        let mut sources = SourceMap::new();
        let id = sources.add(file, text);
        let diagnostics = offsets
            .iter()
            .map(|&o| {
                Diagnostic::warning(
                    Code("w"),
                    Span::new(id, TextRange::new(o, o + 1)),
                    format!("at {o}"),
                )
            })
            .collect();
        ProgramResult {
            path: path.to_string(),
            program: Program::default(),
            sources,
            diagnostics,
        }
    }

    #[test]
    fn entries_are_sorted_by_file_then_position_and_capped() {
        let programs = vec![
            program("b", "b.pp", "x = 1\ny = 2\n", &[6, 0]),
            program("a", "a.pp", "x = 1\n", &[2]),
        ];
        let report = Report::new(programs, Some(2), false);
        let got: Vec<String> = report
            .items()
            .map(|i| format!("{}:{}", i.loc.file, i.loc.start.line))
            .collect();
        assert_eq!(got, ["a.pp:1", "b.pp:1"]);
        assert_eq!(report.omitted(), 1);
        assert_eq!(report.warnings, 3);
        assert!(!report.fails());
        assert!(report
            .omitted_note()
            .is_some_and(|n| n.starts_with("1 more diagnostic ")));
    }
}
