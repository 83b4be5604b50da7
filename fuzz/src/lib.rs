//! The invariants the fuzz targets check, one function per target.
//!
//! Each function takes the raw fuzz input and returns `Err(message)` when an
//! invariant is violated (a panic inside the library is left to propagate).
//! The fuzz targets in `fuzz/fuzz_targets/` panic on `Err`; the regression
//! test `crates/pcl/tests/fuzz_regressions.rs` includes this file with
//! `#[path]` and runs the same checks on every input saved under
//! `testdata/robustness/fuzz/<target>/`, so there is one definition of
//! "passes".

use std::sync::OnceLock;

use pcl_binder::{check_program, BindPolicy};
use pcl_diagnostics::{Diagnostic, FileId, TextRange};
use pcl_schema::MemoryLoader;
use pcl_syntax::Token;

/// The schemas the `check` target binds against.
const SCHEMAS: [&str; 3] = [
    include_str!("../../testdata/schemas/tiny-1.0.0.json"),
    include_str!("../../testdata/schemas/ext-0.3.0.json"),
    include_str!("../../testdata/schemas/unions-1.0.0.json"),
];

/// The byte that splits a `check` input into two program files.
pub const FILE_SEPARATOR: u8 = 0xff;

/// The file id every single-file entry point is given.
const FILE: FileId = FileId(0);

/// Input bytes as text (invalid UTF-8 becomes U+FFFD).
pub fn text_of(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Target `parse`: `pcl_syntax::parse` keeps its lossless promises.
pub fn parse(data: &[u8]) -> Result<(), String> {
    let text = text_of(data);
    let p = pcl_syntax::parse(FILE, &text);
    check_tokens("parse", &text, p.tokens())?;
    check_syntax_diagnostics("parse", &text, p.diagnostics())?;
    check_print("parse", &text, &p.print())
}

/// [`parse`], also requiring every syntax diagnostic of a non-empty input
/// to have a non-empty range. The `parse` fuzz target checks this.
pub fn parse_nonempty(data: &[u8]) -> Result<(), String> {
    parse(data)?;
    let text = text_of(data);
    let p = pcl_syntax::parse(FILE, &text);
    for d in p.diagnostics() {
        if d.span.range.is_empty() && !text.is_empty() {
            return Err(format!(
                "parse: diagnostic {:?} `{}` has an empty range {:?}",
                d.code, d.summary, d.span.range
            ));
        }
    }
    Ok(())
}

/// Target `expr_template`: the same promises for `parse_expr` and
/// `parse_template`.
pub fn expr_template(data: &[u8]) -> Result<(), String> {
    let text = text_of(data);
    let e = pcl_syntax::parse_expr(FILE, &text);
    check_tokens("parse_expr", &text, e.tokens())?;
    check_syntax_diagnostics("parse_expr", &text, e.diagnostics())?;
    check_print("parse_expr", &text, &e.print())?;
    let t = pcl_syntax::parse_template(FILE, &text);
    check_tokens("parse_template", &text, t.tokens())?;
    check_syntax_diagnostics("parse_template", &text, t.diagnostics())?;
    check_print("parse_template", &text, &t.print())
}

/// Splits a `check` input into program files: one file, or two when the
/// input contains [`FILE_SEPARATOR`] (split at its first occurrence).
pub fn program_files(data: &[u8]) -> Vec<(String, String)> {
    match data.iter().position(|&b| b == FILE_SEPARATOR) {
        Some(at) => vec![
            ("main.pp".to_string(), text_of(&data[..at])),
            ("other.pp".to_string(), text_of(&data[at + 1..])),
        ],
        None => vec![("main.pp".to_string(), text_of(data))],
    }
}

/// The loader over the embedded schemas.
fn loader() -> Result<&'static MemoryLoader, String> {
    static LOADER: OnceLock<Result<MemoryLoader, String>> = OnceLock::new();
    LOADER
        .get_or_init(|| {
            let mut loader = MemoryLoader::new();
            for schema in SCHEMAS {
                loader
                    .add(schema)
                    .map_err(|e| format!("fixture schema: {e}"))?;
            }
            Ok(loader)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Target `check`: `check_program` (strict and lenient) never panics and
/// every diagnostic points into a file it read, at a non-empty range.
pub fn check_program_bytes(data: &[u8]) -> Result<(), String> {
    let sources = program_files(data);
    let loader = loader()?;
    for (name, policy) in [
        ("strict", BindPolicy::strict()),
        ("lenient", BindPolicy::lenient()),
    ] {
        let checked = check_program(&sources, loader, &policy);
        let files = checked.sources();
        for d in checked.diagnostics() {
            let what = format!("check ({name}) diagnostic {:?} `{}`", d.code, d.summary);
            let Some(file) = files.get(d.span.file) else {
                return Err(format!(
                    "{what}: file {:?} is not in the source map",
                    d.span.file
                ));
            };
            let text = file.text();
            check_range(&what, text, d.span.range)?;
            if d.span.range.is_empty() && !text.is_empty() {
                return Err(format!("{what}: empty range {:?}", d.span.range));
            }
            for label in d.related() {
                let what = format!("{what} related `{}`", label.message);
                let Some(file) = files.get(label.span.file) else {
                    return Err(format!(
                        "{what}: file {:?} is not in the source map",
                        label.span.file
                    ));
                };
                check_range(&what, file.text(), label.span.range)?;
            }
        }
    }
    Ok(())
}

/// Target `type_notation`: `parse_type` never panics, and whatever parses
/// prints in notation to text that re-parses to an equal type and prints
/// identically.
pub fn type_notation(data: &[u8]) -> Result<(), String> {
    let text = text_of(data);
    let Ok(first) = pcl_types::parse_type(&text) else {
        return Ok(());
    };
    let printed = pcl_types::to_notation(&first);
    let second = pcl_types::parse_type(&printed)
        .map_err(|e| format!("notation `{printed}` (from `{text}`) does not re-parse: {e:?}"))?;
    if first != second {
        return Err(format!(
            "`{text}` and its notation `{printed}` parse to different types"
        ));
    }
    let reprinted = pcl_types::to_notation(&second);
    if reprinted != printed {
        return Err(format!(
            "`{text}` prints as `{printed}`, which re-prints as `{reprinted}`"
        ));
    }
    // Display must not panic either.
    let _ = first.to_string();
    Ok(())
}

fn check_range(what: &str, text: &str, range: TextRange) -> Result<(), String> {
    let (start, end) = (range.start as usize, range.end as usize);
    if start > end || end > text.len() {
        return Err(format!(
            "{what}: range {start}..{end} outside the input (length {})",
            text.len()
        ));
    }
    if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
        return Err(format!(
            "{what}: range {start}..{end} is not on char boundaries"
        ));
    }
    Ok(())
}

fn check_tokens(entry: &str, text: &str, tokens: &[Token]) -> Result<(), String> {
    let mut at = 0usize;
    for (i, token) in tokens.iter().enumerate() {
        let what = format!("{entry}: token #{i} {:?}", token.kind);
        check_range(&what, text, token.range)?;
        if token.range.start as usize != at {
            return Err(format!(
                "{what} starts at {} but the previous ended at {at}",
                token.range.start
            ));
        }
        if token.range.is_empty() {
            return Err(format!("{what} is empty at {at}"));
        }
        at = token.range.end as usize;
    }
    if at != text.len() {
        return Err(format!(
            "{entry}: tokens end at {at}, input length {}",
            text.len()
        ));
    }
    Ok(())
}

fn check_syntax_diagnostics(
    entry: &str,
    text: &str,
    diagnostics: &[Diagnostic],
) -> Result<(), String> {
    for d in diagnostics {
        let what = format!("{entry}: diagnostic {:?} `{}`", d.code, d.summary);
        if d.span.file != FILE {
            return Err(format!("{what}: file {:?}, expected {FILE:?}", d.span.file));
        }
        check_range(&what, text, d.span.range)?;
        for label in d.related() {
            check_range(
                &format!("{what} related `{}`", label.message),
                text,
                label.span.range,
            )?;
        }
    }
    Ok(())
}

fn check_print(entry: &str, text: &str, printed: &str) -> Result<(), String> {
    if printed != text {
        return Err(format!("{entry}: print() differs from the input"));
    }
    Ok(())
}
