//! The library's contract: errors, ranges, depth and size.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use pcl_diagnostics::{FileId, TextRange};
use pcl_fmt::{format, format_range, FormatError};

#[global_allocator]
static ALLOC: pcl_testkit::CountingAlloc = pcl_testkit::CountingAlloc;

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
    // Up to 100,000 attributes in one run: one alignment pass, not one per
    // line. The work is counted in allocations at 1×, 4× and 16×.
    let count = |n: usize| {
        let mut text = String::new();
        for i in 0..n {
            text.push_str(&format!("a{i}=1\n"));
        }
        let (formatted, allocations) = pcl_testkit::allocations(|| format(FileId(0), &text));
        let formatted = formatted.unwrap();
        let widest = format!("a{}", n - 1).len();
        assert!(formatted.starts_with(&format!("{:<widest$} = 1\n", "a0")));
        assert!(formatted.ends_with(&format!("a{} = 1\n", n - 1)));
        allocations
    };
    pcl_testkit::assert_linear(
        "aligned attributes: allocations",
        [count(6_250), count(25_000), count(100_000)],
    );
}
