//! Property tests: for arbitrary text, and for golden inputs with random
//! edits, every entry point returns without panicking, printing the result
//! gives back the input, tokens are contiguous and cover the input, and
//! every diagnostic and node range lies within the input. Case counts are
//! kept small so the suite runs in seconds in a debug build.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::OnceLock;

use pcl_diagnostics::FileId;
use proptest::prelude::*;

fn check_all(text: &str) -> Result<(), TestCaseError> {
    check_all_inner(text).map_err(|err| TestCaseError::fail(format!("{err}\ninput: {text:?}")))
}

fn check_all_inner(text: &str) -> Result<(), TestCaseError> {
    let parse = pcl_syntax::parse(FileId(0), text);
    prop_assert_eq!(parse.print(), text);
    common::check_tokens(text, parse.tokens()).map_err(TestCaseError::fail)?;
    common::check_diagnostic_ranges(text, parse.diagnostics()).map_err(TestCaseError::fail)?;
    common::check_tree_ranges(text, parse.body()).map_err(TestCaseError::fail)?;
    let _ = parse.dump();

    let expr = pcl_syntax::parse_expr(FileId(0), text);
    prop_assert_eq!(expr.print(), text);
    common::check_tokens(text, expr.tokens()).map_err(TestCaseError::fail)?;
    common::check_diagnostic_ranges(text, expr.diagnostics()).map_err(TestCaseError::fail)?;
    let _ = expr.dump();

    let template = pcl_syntax::parse_template(FileId(0), text);
    prop_assert_eq!(template.print(), text);
    common::check_tokens(text, template.tokens()).map_err(TestCaseError::fail)?;
    common::check_diagnostic_ranges(text, template.diagnostics()).map_err(TestCaseError::fail)?;
    let _ = template.dump();
    Ok(())
}

/// The golden inputs, read once. Very large inputs are left out to keep
/// each case fast.
fn fixtures() -> &'static [String] {
    static FIXTURES: OnceLock<Vec<String>> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        common::all_fixtures()
            .iter()
            .map(|path| common::read(path))
            .filter(|text| text.len() <= 4096)
            .collect()
    })
}

/// One edit at a relative position (0..=1000 per mille of the text).
#[derive(Clone, Debug)]
enum Edit {
    Insert(u16, String),
    Delete(u16, u8),
    Replace(u16, char),
}

/// Pieces of syntax worth inserting: delimiters, template markers,
/// heredoc introducers, line breaks and a few awkward characters.
const SNIPPETS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "\"",
    "${",
    "%{",
    "~}",
    "<<EOT\n",
    "<<-EOT\n",
    "EOT\n",
    "\n",
    "\r\n",
    "\r",
    "#",
    "//",
    "/*",
    "*/",
    "=",
    "==",
    ",",
    ".",
    ".*",
    "[*]",
    "...",
    "::",
    "?",
    ":",
    "=>",
    "\\",
    "$$",
    "%%",
    "for",
    "in",
    "if",
    "endif",
    "endfor",
    "else",
    "\u{feff}",
    "é",
    "🌻",
    "\t",
    " ",
    "0",
    "1e",
    "99999999999999999999999999999999999999999999999999999999999999999999999999999999",
];

fn edit_strategy() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (0u16..=1000, prop::sample::select(SNIPPETS))
            .prop_map(|(at, s)| Edit::Insert(at, s.to_string())),
        (0u16..=1000, any::<char>()).prop_map(|(at, c)| Edit::Insert(at, c.to_string())),
        (0u16..=1000, 1u8..8).prop_map(|(at, n)| Edit::Delete(at, n)),
        (0u16..=1000, any::<char>()).prop_map(|(at, c)| Edit::Replace(at, c)),
    ]
}

/// The char boundary nearest below `per_mille` of the text.
fn boundary(text: &str, per_mille: u16) -> usize {
    let mut at = text.len() * usize::from(per_mille) / 1000;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_string();
    for edit in edits {
        match edit {
            Edit::Insert(at, piece) => {
                let at = boundary(&text, *at);
                text.insert_str(at, piece);
            }
            Edit::Delete(at, n) => {
                let start = boundary(&text, *at);
                let end = text[start..]
                    .char_indices()
                    .nth(usize::from(*n))
                    .map_or(text.len(), |(idx, _)| start + idx);
                text.replace_range(start..end, "");
            }
            Edit::Replace(at, ch) => {
                let start = boundary(&text, *at);
                if let Some(old) = text[start..].chars().next() {
                    text.replace_range(start..start + old.len_utf8(), &ch.to_string());
                }
            }
        }
    }
    text
}

proptest! {
    // Failures are not persisted to a file: a shrunk case that matters is
    // copied into `regressions` below as a plain input instead.
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_strings(text in any::<String>()) {
        check_all(&text)?;
    }

    #[test]
    fn hcl_flavoured_strings(text in "[a-z0-9 =<>\\-{}\\[\\]()\"$%~#/*.,:?!&|+\\\\\n\r\t]{0,120}") {
        check_all(&text)?;
    }

    #[test]
    fn edited_golden_inputs(
        idx in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_strategy(), 1..6),
    ) {
        let fixtures = fixtures();
        prop_assume!(!fixtures.is_empty());
        let original = &fixtures[idx.index(fixtures.len())];
        let text = apply(original, &edits);
        check_all(&text)?;
    }
}

/// Inputs found by the properties above, kept as plain cases.
#[test]
fn regressions() {
    for text in [
        // An unclosed `(` whose contents run on into comments: the parens
        // node must still cover its operand.
        "a = (1 + # c\n# 2)\n",
        // A stray `]` right after `${`: the interpolation must cover the
        // error expression made for it.
        "x = \"${] {a = 1 ~} }\"\n",
        // A one-line block broken by a stray `~}`: the block must cover
        // its body.
        "x {a = 1 ~} }\"\n",
        "x { a = [1, ~} ]\n",
        "a = { k = [1 ~} }\n",
    ] {
        if let Err(err) = check_all(text) {
            panic!("{err}");
        }
    }
}

/// Very deep nesting of every bracket kind is reported, not a stack
/// overflow, on a thread with the 2 MiB stack tests get by default.
#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let depth = 100_000;
    let inputs = [
        format!("a = {}1{}\n", "(".repeat(depth), ")".repeat(depth)),
        format!("a = {}{}\n", "[".repeat(depth), "]".repeat(depth)),
        format!("a = {}1{}\n", "{a=".repeat(depth), "}".repeat(depth)),
        format!("a = {}1{}\n", "f(".repeat(depth), ")".repeat(depth)),
        format!("a = {}1{}\n", "\"${".repeat(depth), "}\"".repeat(depth)),
        format!("a = {}1\n", "-".repeat(depth)),
        format!("a = {}1\n", "!".repeat(depth)),
        format!(
            "a = {}\n",
            "x ? ".repeat(depth) + "1" + &" : 2".repeat(depth)
        ),
        format!("{}{}", "b {\n".repeat(depth), "}\n".repeat(depth)),
        format!("a = {}", "(".repeat(depth)),
    ];
    let handle = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || {
            for text in &inputs {
                let parse = pcl_syntax::parse(FileId(0), text);
                assert!(parse.has_errors(), "no error for {}", &text[..20]);
                assert!(
                    parse
                        .diagnostics()
                        .iter()
                        .any(|d| d.code == pcl_syntax::codes::NESTING_TOO_DEEP),
                    "no nesting-too-deep for {}",
                    &text[..20]
                );
                assert_eq!(parse.print(), *text);
                let _ = parse.dump();
                drop(parse);
                let expr = pcl_syntax::parse_expr(FileId(0), text);
                let _ = expr.dump();
            }
        })
        .unwrap();
    handle
        .join()
        .expect("parsing deep input panicked or overflowed");
}
