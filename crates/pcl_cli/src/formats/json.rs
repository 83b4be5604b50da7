//! `--format json`: one document on stdout.
//!
//! ```text
//! {"version": 1,
//!  "programs": [{"path": …, "diagnostics": [
//!     {"severity", "code", "summary", "detail"?, "file",
//!      "range": {"start": {"line", "column", "byte"}, "end": {…}},
//!      "related"?: [{"message", "file", "range"}], "help"?: ["…"],
//!      "fixes"?: [{"message", "replacement", "file", "range"}]}]}],
//!  "summary": {"programs", "errors", "warnings", "omitted"?},
//!  "run_errors": [{"path", "message"}]}
//! ```
//!
//! Lines and columns are 1-based (columns in grapheme clusters), bytes
//! 0-based. Optional fields are absent rather than null. New fields may be
//! added; the `version` changes only for incompatible changes.

use std::io::{self, Write};

use serde_json::{json, Map, Value};

use super::{Item, Loc, Report};
use pcl_diagnostics::Position;

/// The document's format version.
pub const VERSION: u32 = 1;

/// Writes the document (pretty-printed, newline-terminated), streaming:
/// each diagnostic's value is built when it is written, so memory does not
/// grow with the number of diagnostics. Byte-identical to printing
/// [`document`].
pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let skeleton = document_with(report, false);
    let lists: Vec<_> = per_program(report)
        .into_iter()
        .map(|items| items.into_iter().map(|item| diagnostic(&item)))
        .collect();
    super::safe_json::write_streamed(&mut out, &skeleton, "diagnostics", lists)?;
    writeln!(out)?;
    out.flush()
}

/// The document as a JSON value.
pub fn document(report: &Report) -> Value {
    document_with(report, true)
}

/// The shown items of each program, in order.
fn per_program(report: &Report) -> Vec<Vec<Item<'_>>> {
    let mut per_program: Vec<Vec<Item<'_>>> = Vec::new();
    per_program.resize_with(report.programs.len(), Vec::new);
    for item in report.items() {
        if let Some(list) = per_program.get_mut(item.program) {
            list.push(item);
        }
    }
    per_program
}

/// The document, with every program's `diagnostics` empty unless
/// `diagnostics`.
fn document_with(report: &Report, diagnostics: bool) -> Value {
    let per_program = per_program(report);
    let programs: Vec<Value> = report
        .programs
        .iter()
        .zip(per_program)
        .map(|(p, items)| {
            let list: Vec<Value> = if diagnostics {
                items.iter().map(diagnostic).collect()
            } else {
                Vec::new()
            };
            json!({"path": p.path, "diagnostics": list})
        })
        .collect();
    let mut summary = Map::new();
    summary.insert("programs".into(), json!(report.programs.len()));
    summary.insert("errors".into(), json!(report.errors));
    summary.insert("warnings".into(), json!(report.warnings));
    if report.omitted() > 0 {
        summary.insert("omitted".into(), json!(report.omitted()));
    }
    json!({
        "version": VERSION,
        "programs": programs,
        "summary": summary,
        "run_errors": run_errors(report),
    })
}

/// `[{"path", "message"}]`: the problems of the run itself.
fn run_errors(report: &Report) -> Value {
    report
        .run_errors
        .iter()
        .map(|e| json!({"path": e.path, "message": e.message}))
        .collect()
}

fn diagnostic(item: &Item<'_>) -> Value {
    let d = item.diagnostic;
    let mut m = Map::new();
    m.insert("severity".into(), json!(d.severity.as_str()));
    m.insert("code".into(), json!(d.code.as_str()));
    m.insert("summary".into(), json!(d.summary));
    if let Some(detail) = d.detail() {
        m.insert("detail".into(), json!(detail));
    }
    m.insert("file".into(), json!(item.loc.file));
    m.insert("range".into(), range(item.loc));
    let related: Vec<Value> = item
        .related()
        .iter()
        .map(|(loc, message)| json!({"message": message, "file": loc.file, "range": range(loc)}))
        .collect();
    if !related.is_empty() {
        m.insert("related".into(), Value::Array(related));
    }
    if !d.help().is_empty() {
        m.insert("help".into(), json!(d.help()));
    }
    if let Some(fixes) = fixes(item) {
        m.insert("fixes".into(), fixes);
    }
    Value::Object(m)
}

/// `[{"message", "replacement", "file", "range"}]`: the diagnostic's
/// machine-applicable edits, best first (replace the text at `range` of
/// `file` with `replacement`; an empty range inserts). `None` when there
/// are none.
pub fn fixes(item: &Item<'_>) -> Option<Value> {
    let fixes = item.diagnostic.fixes();
    (!fixes.is_empty()).then(|| {
        fixes
            .iter()
            .map(|f| {
                let loc = Loc::of(item.sources, f.span);
                json!({
                    "message": f.message,
                    "replacement": f.replacement,
                    "file": loc.file,
                    "range": range(&loc),
                })
            })
            .collect()
    })
}

/// `{"start": {line, column, byte}, "end": {…}}`.
pub fn range(loc: &Loc) -> Value {
    json!({"start": position(loc.start), "end": position(loc.end)})
}

/// `{line, column, byte}`.
pub fn position(p: Position) -> Value {
    json!({"line": p.line, "column": p.column, "byte": p.byte})
}
