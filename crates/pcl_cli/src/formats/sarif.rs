//! `--format sarif`: SARIF 2.1.0, the subset GitHub code scanning accepts.
//!
//! One run whose driver is `pcl`; one rule per diagnostic code that occurs
//! (the code is the rule id, stable across releases); one result per
//! diagnostic with its level, message, primary location and related
//! locations. Artifact URIs are the file paths relative to the current
//! directory with forward slashes, percent-encoded. Columns are counted in
//! Unicode code points (`columnKind: unicodeCodePoints`), and each region
//! also carries its byte offset and length. A diagnostic's machine-applicable
//! edits are its result's `fixes` (SARIF `fix` objects: `description.text`,
//! one `artifactChanges` entry with one `replacements` entry, whose
//! `deletedRegion` is the text to replace and `insertedContent.text` the new
//! text).

use std::collections::BTreeSet;
use std::io::{self, Write};

use pcl_diagnostics::{FileId, Position, Severity, SourceMap, Span};
use serde_json::{json, Map, Value};

use super::{Item, Loc, Report};

/// The SARIF 2.1.0 JSON schema.
pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// Writes the SARIF log, streaming: each result's value is built when it
/// is written, so memory does not grow with the number of diagnostics.
/// Byte-identical to printing [`document`].
pub fn write(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(out);
    let items: Vec<Item<'_>> = report.items().collect();
    let codes = codes(&items);
    let skeleton = document_with(report, &items, &codes, false);
    let results = items.iter().map(|item| {
        result(
            item,
            codes.binary_search(&item.diagnostic.code.as_str()).ok(),
        )
    });
    super::safe_json::write_streamed(&mut out, &skeleton, "results", vec![results])?;
    writeln!(out)?;
    out.flush()
}

/// The SARIF log as a JSON value.
pub fn document(report: &Report) -> Value {
    let items: Vec<Item<'_>> = report.items().collect();
    let codes = codes(&items);
    document_with(report, &items, &codes, true)
}

/// The codes that occur, sorted: the rules.
fn codes<'a>(items: &[Item<'a>]) -> Vec<&'a str> {
    let codes: BTreeSet<&str> = items.iter().map(|i| i.diagnostic.code.as_str()).collect();
    codes.into_iter().collect()
}

/// The log, with an empty `results` unless `results`.
fn document_with(report: &Report, items: &[Item<'_>], codes: &[&str], results: bool) -> Value {
    let rules: Vec<Value> = codes
        .iter()
        .map(|code| crate::catalogue::sarif_rule(code))
        .collect();
    let results: Vec<Value> = if results {
        items
            .iter()
            .map(|item| {
                result(
                    item,
                    codes.binary_search(&item.diagnostic.code.as_str()).ok(),
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut run = Map::new();
    run.insert(
        "tool".into(),
        json!({"driver": {
            "name": "pcl",
            "version": env!("CARGO_PKG_VERSION"),
            "informationUri": "https://www.pulumi.com/docs/",
            "rules": rules,
        }}),
    );
    run.insert("invocations".into(), invocations(report));
    run.insert("columnKind".into(), json!("unicodeCodePoints"));
    run.insert("results".into(), Value::Array(results));
    if report.omitted() > 0 {
        run.insert("properties".into(), json!({"omitted": report.omitted()}));
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [Value::Object(run)],
    })
}

/// `[{"executionSuccessful", "toolExecutionNotifications"?}]`: a run with
/// run errors (an unreadable path, a bad `pcl.toml`) did not succeed, and
/// each run error is a notification.
fn invocations(report: &Report) -> Value {
    let notifications: Vec<Value> = report
        .run_errors
        .iter()
        .map(|e| {
            let mut n = Map::new();
            n.insert("level".into(), json!("error"));
            n.insert("message".into(), json!({"text": e.message}));
            if !e.path.is_empty() {
                n.insert(
                    "locations".into(),
                    json!([{"physicalLocation": {"artifactLocation": {"uri": uri(&e.path)}}}]),
                );
            }
            Value::Object(n)
        })
        .collect();
    let mut invocation = Map::new();
    invocation.insert(
        "executionSuccessful".into(),
        json!(report.run_errors.is_empty()),
    );
    if !notifications.is_empty() {
        invocation.insert(
            "toolExecutionNotifications".into(),
            Value::Array(notifications),
        );
    }
    json!([Value::Object(invocation)])
}

fn result(item: &Item<'_>, rule_index: Option<usize>) -> Value {
    let d = item.diagnostic;
    let level = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let mut text = d.summary.clone();
    if let Some(detail) = d.detail() {
        text.push('\n');
        text.push_str(detail);
    }
    for help in d.help() {
        text.push_str("\nhelp: ");
        text.push_str(help);
    }
    let mut r = Map::new();
    r.insert("ruleId".into(), json!(d.code.as_str()));
    if let Some(index) = rule_index {
        r.insert("ruleIndex".into(), json!(index));
    }
    r.insert("level".into(), json!(level));
    r.insert("message".into(), json!({"text": text}));
    r.insert(
        "locations".into(),
        json!([{"physicalLocation": physical(item.sources, d.span.file, item.loc)}]),
    );
    let related: Vec<Value> = d
        .related()
        .iter()
        .zip(item.related())
        .enumerate()
        .map(|(id, (label, (loc, message)))| {
            json!({
                "id": id,
                "message": {"text": message},
                "physicalLocation": physical(item.sources, label.span.file, &loc),
            })
        })
        .collect();
    if !related.is_empty() {
        r.insert("relatedLocations".into(), Value::Array(related));
    }
    if !d.fixes().is_empty() {
        let fixes: Vec<Value> = d
            .fixes()
            .iter()
            .map(|f| fix(item.sources, f.span, &f.message, &f.replacement))
            .collect();
        r.insert("fixes".into(), Value::Array(fixes));
    }
    r.insert(
        "partialFingerprints".into(),
        json!({"pclDiagnostic/v1": fingerprint(&[d.code.as_str(), &item.loc.file, &d.summary])}),
    );
    Value::Object(r)
}

/// A SARIF `fix`: replace `span` with `replacement`.
fn fix(sources: &SourceMap, span: Span, message: &str, replacement: &str) -> Value {
    let loc = Loc::of(sources, span);
    json!({
        "description": {"text": message},
        "artifactChanges": [{
            "artifactLocation": {"uri": uri(&loc.file)},
            "replacements": [{
                "deletedRegion": region(sources, span.file, &loc),
                "insertedContent": {"text": replacement},
            }],
        }],
    })
}

/// The physical location of `loc`, which is in file `file` of `sources`.
fn physical(sources: &SourceMap, file: FileId, loc: &Loc) -> Value {
    json!({
        "artifactLocation": {"uri": uri(&loc.file)},
        "region": region(sources, file, loc),
    })
}

/// The region of `loc`, which is in file `file` of `sources`.
fn region(sources: &SourceMap, file: FileId, loc: &Loc) -> Value {
    let text = sources.get(file).map_or("", |f| f.text());
    json!({
        "startLine": loc.start.line,
        "startColumn": code_point_column(sources, file, text, loc.start),
        "endLine": loc.end.line,
        "endColumn": code_point_column(sources, file, text, loc.end),
        "byteOffset": loc.start.byte,
        "byteLength": loc.end.byte.saturating_sub(loc.start.byte),
    })
}

/// The 1-based code-point column of `pos` in `text`, the text of `file`
/// (the file's line index keeps this cheap on long lines).
fn code_point_column(sources: &SourceMap, file: FileId, text: &str, pos: Position) -> u32 {
    match sources.get(file) {
        Some(f) => f.line_index().code_point_column(text, pos.byte),
        None => pos.column,
    }
}

/// A relative path as a URI reference: forward slashes, and every byte
/// outside the unreserved set (and `/`) percent-encoded.
pub fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut out = String::new();
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A stable 64-bit FNV-1a hash of `parts`, in hex.
fn fingerprint(parts: &[&str]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for byte in part.bytes().chain([0u8]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_relative_and_encoded() {
        assert_eq!(
            uri("examples/web app/main.pp"),
            "examples/web%20app/main.pp"
        );
        assert_eq!(uri("a\\b.pp"), "a/b.pp");
    }

    #[test]
    fn columns_count_code_points() {
        let text = "x\né = 1\n";
        let mut sources = SourceMap::new();
        let file = sources.add("main.pp", text);
        let pos = Position {
            line: 2,
            column: 3,
            byte: 5,
        };
        assert_eq!(code_point_column(&sources, file, text, pos), 3);
    }
}
