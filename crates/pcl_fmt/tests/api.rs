//! The library's contract: errors, ranges, depth and size.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use pcl_diagnostics::{FileId, TextRange};
use pcl_fmt::{format, format_range, FormatError};

#[test]
fn syntax_errors_are_returned_not_formatted() {
    let text = "a   = (1\nb = 2\n";
    match format(FileId(7), text) {
        Err(FormatError::Syntax(diagnostics)) => {
            assert!(!diagnostics.is_empty());
            assert!(diagnostics.iter().all(|d| d.span.file == FileId(7)));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_range_formats_only_the_lines_it_touches() {
    let text = "a  =  1\nbb=2\nccc   =3\n";
    let start = text.find("bb").unwrap();
    let range = TextRange::from_usize(start + 1..start + 2);
    // The whole file aligns `=` on column 5; only line 2 is rewritten.
    assert_eq!(
        format(FileId(0), text).unwrap(),
        "a   = 1\nbb  = 2\nccc = 3\n"
    );
    assert_eq!(
        format_range(FileId(0), text, range).unwrap(),
        "a  =  1\nbb  = 2\nccc   =3\n"
    );
    // An empty range at the end of the file touches the last line only.
    let end = TextRange::from_usize(text.len()..text.len());
    assert_eq!(format_range(FileId(0), text, end).unwrap(), text);
    // A range past the end is clamped.
    let past = TextRange::from_usize(0..10_000);
    assert_eq!(
        format_range(FileId(0), text, past).unwrap(),
        format(FileId(0), text).unwrap()
    );
}

#[test]
fn nesting_is_indented_without_recursion_and_too_deep_input_is_refused() {
    // 100 levels: the parser accepts them, each line indents two more.
    let depth = 100;
    let mut text = String::from("a = ");
    for _ in 0..depth {
        text.push_str("[\n");
    }
    text.push_str("1\n");
    for _ in 0..depth {
        text.push_str("]\n");
    }
    let formatted = format(FileId(0), &text).unwrap();
    let deepest = formatted.lines().find(|l| l.trim() == "1").unwrap();
    assert_eq!(deepest.len() - 1, 2 * depth);
    // Far beyond the parser's depth limit: an error, not a crash.
    let deep = format!("a = {}1{}\n", "[".repeat(100_000), "]".repeat(100_000));
    assert!(matches!(
        format(FileId(0), &deep),
        Err(FormatError::Syntax(_))
    ));
}

#[test]
fn many_attributes_align_in_linear_time() {
    // 100,000 attributes in one run: one alignment pass, not one per line.
    let mut text = String::new();
    for i in 0..100_000 {
        text.push_str(&format!("a{i}=1\n"));
    }
    let started = std::time::Instant::now();
    let formatted = format(FileId(0), &text).unwrap();
    assert!(formatted.starts_with("a0     = 1\n"));
    assert!(formatted.ends_with("a99999 = 1\n"));
    // Generous: a quadratic pass would take minutes here.
    assert!(started.elapsed().as_secs() < 60);
}
