//! The per-file diagnostic limit in a parse (#18 finding 7): a file of
//! errors keeps the first 1,000 diagnostics, in input order, and ends with
//! one `too-many-diagnostics` summary that counts the rest and has their
//! highest severity. The inputs are generated: 1,001 problems would make
//! a golden file of 8,000 lines.

use pcl_diagnostics::{Diagnostic, FileId, Severity, MAX_DIAGNOSTICS_PER_FILE};

fn parse(text: &str) -> Vec<Diagnostic> {
    let parse = pcl_syntax::parse(FileId(0), text);
    assert_eq!(parse.print(), text);
    parse.diagnostics().to_vec()
}

fn summary_text(more: &str) -> String {
    format!(
        "{more} in this file are not shown (pcl reports at most 1,000 per file); \
         fix the ones above and check again"
    )
}

#[test]
fn a_file_of_syntax_errors_keeps_the_first_thousand_and_a_summary() {
    let diags = parse(&"=\n".repeat(1_500));
    assert_eq!(diags.len(), MAX_DIAGNOSTICS_PER_FILE + 1);
    let (summary, kept) = diags.split_last().unwrap();
    assert!(kept
        .iter()
        .all(|d| d.code.as_str() != "too-many-diagnostics"));
    // The first ones found, in input order: line i's error is the i-th.
    let starts: Vec<u32> = kept.iter().map(|d| d.span.range.start).collect();
    assert!(starts.windows(2).all(|w| w[0] < w[1]), "{starts:?}");
    assert_eq!(kept.last().map(|d| d.span.range.start), Some(2 * 999));
    assert_eq!(summary.code.as_str(), "too-many-diagnostics");
    assert_eq!(summary.severity, Severity::Error);
    assert_eq!(summary.summary, summary_text("500 more problems"));
    // At the last problem shown.
    assert_eq!(summary.span, kept.last().unwrap().span);
}

#[test]
fn a_file_at_the_limit_has_no_summary() {
    let diags = parse(&"=\n".repeat(MAX_DIAGNOSTICS_PER_FILE));
    assert_eq!(diags.len(), MAX_DIAGNOSTICS_PER_FILE);
    assert!(diags
        .iter()
        .all(|d| d.code.as_str() != "too-many-diagnostics"));
    let diags = parse(&"=\n".repeat(MAX_DIAGNOSTICS_PER_FILE + 1));
    assert_eq!(
        diags.last().map(|d| d.summary.as_str()),
        Some(
            "1 more problem in this file is not shown (pcl reports at most 1,000 per file); \
             fix the ones above and check again"
        )
    );
}

/// The duplicate attributes of the validation pass count towards the
/// same limit as the parser's errors, merged by position.
#[test]
fn syntax_errors_and_duplicate_attributes_share_one_limit() {
    let text = "a = 1\n".to_string() + &"=\na = 1\n".repeat(700);
    let diags = parse(&text);
    assert_eq!(diags.len(), MAX_DIAGNOSTICS_PER_FILE + 1);
    let (summary, kept) = diags.split_last().unwrap();
    let codes: Vec<&str> = kept.iter().take(4).map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "expected-attribute-or-block",
            "duplicate-attribute",
            "expected-attribute-or-block",
            "duplicate-attribute"
        ]
    );
    let starts: Vec<u32> = kept.iter().map(|d| d.span.range.start).collect();
    assert!(starts.windows(2).all(|w| w[0] <= w[1]), "{starts:?}");
    assert_eq!(summary.summary, summary_text("400 more problems"));
    assert_eq!(summary.severity, Severity::Error);
}
