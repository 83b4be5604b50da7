//! Differential test against hcl-edit (`hcl_edit::parser::parse_body`).
//!
//! On the corpus and the valid golden inputs both parsers must accept, and
//! their attribute/block outlines (names, block types, labels, nesting)
//! must be equal. On the invalid golden inputs both must reject, except
//! where hcl-edit is known to accept input that HCL (hclsyntax, which
//! Pulumi uses) rejects; those inputs are listed in [`HCL_EDIT_ACCEPTS`]
//! with the reason, and the test checks that hcl-edit still accepts them so
//! the list cannot go stale.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::Path;

use hcl_edit::structure::{BlockLabel, Body, Structure};
use pcl_diagnostics::FileId;

/// Invalid inputs (under `testdata/syntax/err/`) that hcl-edit accepts but
/// hclsyntax rejects. pcl follows hclsyntax.
const HCL_EDIT_ACCEPTS: &[(&str, &str)] = &[
    (
        "heredoc_close_comment",
        "`EOT // c` as the closing line: hcl-edit ends the heredoc there; in hclsyntax the marker line must hold only the marker, so the heredoc is unterminated",
    ),
    (
        "newline_in_string",
        "a raw line break inside a quoted string: hcl-edit keeps it in the string; hclsyntax reports `Invalid multi-line string`",
    ),
    ("spec_t06_newline_in_string", "the same, as row T06 of the notes"),
    (
        "number_double_dot",
        "`1.2.3`: hcl-edit reads `1.2` followed by the legacy index `.3`; hclsyntax lexes one number token and reports `Invalid number literal`",
    ),
    (
        "spec_h01_marker_at_eof",
        "a closing marker on the last line with no newline after it: hcl-edit accepts it; hclsyntax does not recognise the marker (`Unterminated template string`)",
    ),
    (
        "spec_k17_for_as_item",
        "`[for, foo]`: hcl-edit reads `for` as a variable; hclsyntax starts a `for` expression after `[` and reports `Invalid 'for' expression`",
    ),
    (
        "spec_p02_chained_legacy",
        "`a.0.0.b`: hcl-edit accepts chained legacy indexes; hclsyntax reports `Invalid legacy index syntax`",
    ),
    (
        "spec_p05_nested_splat",
        "`a.*.*`: hcl-edit accepts a splat directly after an attribute-only splat; hclsyntax reports `Nested splat expression not allowed`",
    ),
];

/// Valid inputs that hcl-edit rejects, or reads with a different outline,
/// although hclsyntax accepts them as pcl does.
const HCL_EDIT_REJECTS: &[(&str, &str)] = &[
    (
        "bom",
        "a leading byte-order mark: hcl-edit rejects it at 1:1; hclsyntax drops a BOM at offset 0",
    ),
    ("spec_l01_bom", "the same, as row L01 of the notes"),
    (
        "deep_but_ok",
        "100 nested parentheses: hcl-edit stops at its own recursion limit (error at 1:70); hclsyntax has no limit and pcl's is 128",
    ),
    (
        "heredoc_marker_lookalikes",
        "the content line ` EOT x`: hcl-edit treats a line starting with the marker (after blanks) as the closing marker and then fails on `x`; in hclsyntax the whole trimmed line must equal the marker, so it is content",
    ),
    (
        "heredoc_empty",
        "`<<EOT` directly followed by its `EOT` line: hcl-edit does not close the heredoc there but at the next marker line, swallowing the attribute `after` (outline differs); hclsyntax reads an empty string",
    ),
    (
        "big_integers",
        "integers above u64::MAX: hcl-edit's number type is u64/i64/f64 and rejects them; hclsyntax numbers are arbitrary precision",
    ),
    (
        "integer_wide",
        "integers above u64::MAX (2^256, f64::MAX written out): rejected by hcl-edit 0.9 for the same reason; hclsyntax accepts them",
    ),
];

fn hcl_outline(body: &Body, prefix: &str, out: &mut Vec<String>) {
    for structure in body.iter() {
        match structure {
            Structure::Attribute(attr) => out.push(format!("attr {prefix}{}", attr.key.as_str())),
            Structure::Block(block) => {
                let labels: Vec<String> = block
                    .labels
                    .iter()
                    .map(|label| match label {
                        BlockLabel::Ident(ident) => format!("{:?}", ident.as_str()),
                        BlockLabel::String(string) => format!("{:?}", string.as_str()),
                    })
                    .collect();
                let name = block.ident.as_str();
                out.push(format!("block {prefix}{name} [{}]", labels.join(", ")));
                hcl_outline(&block.body, &format!("{prefix}{name}."), out);
            }
        }
    }
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

fn compare_valid(path: &Path, failures: &mut Vec<String>) {
    let text = common::read(path);
    let name = stem(path);
    let ours = pcl_syntax::parse(FileId(0), &text);
    let theirs = hcl_edit::parser::parse_body(&text);
    let exception = HCL_EDIT_REJECTS.iter().find(|(n, _)| *n == name);
    match (&theirs, exception) {
        (Err(_), Some(_)) => {}
        (Ok(body), Some(_)) => {
            let mut expected = Vec::new();
            hcl_outline(body, "", &mut expected);
            if expected == common::outline(ours.body()) {
                failures.push(format!(
                    "{name}: listed in HCL_EDIT_REJECTS but hcl-edit now agrees; remove the entry"
                ));
            }
        }
        (Err(err), None) => failures.push(format!(
            "{}: pcl accepts ({} errors) but hcl-edit rejects: {err}",
            path.display(),
            ours.diagnostics().len()
        )),
        (Ok(body), None) => {
            if ours.has_errors() {
                failures.push(format!(
                    "{}: hcl-edit accepts but pcl rejects",
                    path.display()
                ));
            }
            let mut expected = Vec::new();
            hcl_outline(body, "", &mut expected);
            let actual = common::outline(ours.body());
            if expected != actual {
                failures.push(format!(
                    "{}: outlines differ\n  hcl-edit: {expected:?}\n  pcl:      {actual:?}",
                    path.display()
                ));
            }
        }
    }
}

#[test]
fn valid_inputs_agree_with_hcl_edit() {
    let mut files = common::ok_fixtures();
    let corpus = common::corpus_files("differential (corpus part)");
    if corpus.is_empty() {
        println!("comparing golden inputs only");
    }
    files.extend(corpus);
    let mut failures = Vec::new();
    for path in &files {
        compare_valid(path, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} disagreements over {} files:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn invalid_inputs_are_rejected_by_both() {
    let mut failures = Vec::new();
    let files = common::pp_files(&common::golden_dir().join("err"));
    for path in &files {
        let text = common::read(path);
        let name = stem(path);
        let ours = pcl_syntax::parse(FileId(0), &text);
        assert!(ours.has_errors(), "{name}: pcl accepts an err/ input");
        let theirs_accepts = hcl_edit::parser::parse_body(&text).is_ok();
        let listed = HCL_EDIT_ACCEPTS.iter().any(|(n, _)| *n == name);
        match (theirs_accepts, listed) {
            (true, false) => {
                failures.push(format!("{name}: hcl-edit accepts it but pcl rejects it"))
            }
            (false, true) => failures.push(format!(
                "{name}: listed in HCL_EDIT_ACCEPTS but hcl-edit now rejects it; remove the entry"
            )),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn exception_lists_name_existing_inputs() {
    let dir = common::golden_dir();
    for (name, _) in HCL_EDIT_ACCEPTS {
        assert!(
            dir.join("err").join(format!("{name}.pp")).is_file(),
            "{name}"
        );
    }
    for (name, _) in HCL_EDIT_REJECTS {
        assert!(
            dir.join("ok").join(format!("{name}.pp")).is_file(),
            "{name}"
        );
    }
}
