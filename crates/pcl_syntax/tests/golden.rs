//! Golden tests over `testdata/syntax/{ok,err}/*.pp`.
//!
//! Each input has sibling expected files: `name.tree` (the tree dump from
//! `Parse::dump`) and, for `err/` inputs, `name.diag` (the source, then every
//! diagnostic rendered without colour). Regenerate them with
//! `UPDATE_EXPECT=1 cargo test -p pcl_syntax --test golden` and review the
//! diff. Every input is also checked for the structural invariants: the
//! printed tree equals the input, tokens cover the input in order, node
//! ranges nest, diagnostic ranges stay in the input, and (for `ok/`) the
//! same file with CRLF line endings has the same shape.
//!
//! `spec_cases` pins facts from `../shared/spec/syntax-tests.md` §6 (and the
//! specsuite) on top of the goldens: the first diagnostic's code, summary
//! and line:column, or the shape of an attribute's expression. Shapes use
//! the notation of `common::shape_expr`: `var(a)`, `lit(1)`, `(l op r)`,
//! `!(x)`, `cond(c ? t : f)`, `tmpl([...])`, `heredocEOT([...])`, … Rows
//! written for the notes' expression mode are wrapped as `x = …`, so their
//! columns on line 1 are shifted by 4.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use pcl_diagnostics::{render, FileId, LineIndex, RenderOptions, SourceMap};
use pcl_syntax::tree::{ExprKind, ExprRef, Part};
use pcl_syntax::Parse;

const HEADER: &str =
    "# @generated — regenerate with UPDATE_EXPECT=1 cargo test -p pcl_syntax --test golden\n\
     # provenance: pcl's own output, not an outside source's; a change is reviewed by hand before it is committed\n";

fn update_mode() -> bool {
    pcl_testkit::updating()
}

/// `ok/name.pp` or `err/name.pp`: the name used in rendered diagnostics.
fn display_name(path: &Path) -> String {
    let dir = path
        .parent()
        .and_then(Path::file_name)
        .map(|d| d.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = path.file_name().unwrap().to_string_lossy();
    format!("{dir}/{file}")
}

fn parse_fixture(path: &Path) -> (String, Parse, SourceMap, FileId) {
    let text = common::read(path);
    let mut sources = SourceMap::new();
    let file = sources.add(display_name(path), text.as_str());
    let parse = pcl_syntax::parse(file, &text);
    (text, parse, sources, file)
}

fn render_diagnostics(text: &str, parse: &Parse, sources: &SourceMap) -> String {
    let mut out = String::from(HEADER);
    out.push_str("----- source -----\n");
    out.push_str(text);
    if !text.ends_with('\n') {
        out.push_str("\n(no newline at end of file)\n");
    }
    out.push_str("----- diagnostics -----\n");
    for diag in parse.diagnostics() {
        out.push_str(&render(diag, sources, RenderOptions { color: false }));
    }
    out
}

/// Compares `actual` with the file at `path`, or rewrites it in update mode.
fn expect_file(path: &Path, actual: &str, failures: &mut Vec<String>) {
    if update_mode() {
        let current = std::fs::read_to_string(path).unwrap_or_default();
        if current != actual {
            std::fs::write(path, actual).unwrap();
        }
        return;
    }
    match std::fs::read_to_string(path) {
        Err(_) => failures.push(format!("{}: missing expected file", path.display())),
        Ok(expected) if expected != actual => {
            let line = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .map(|idx| idx + 1)
                .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()) + 1);
            failures.push(format!(
                "{}: differs from the actual output from line {line}:\n  expected: {:?}\n  actual:   {:?}",
                path.display(),
                expected.lines().nth(line - 1).unwrap_or("<end>"),
                actual.lines().nth(line - 1).unwrap_or("<end>"),
            ));
        }
        Ok(_) => {}
    }
}

/// Replaces every `\n` not already preceded by `\r` with `\r\n`.
fn to_crlf(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut prev = '\0';
    for ch in text.chars() {
        if ch == '\n' && prev != '\r' {
            out.push('\r');
        }
        out.push(ch);
        prev = ch;
    }
    out
}

/// The invariants that hold for every input, valid or not.
fn check_invariants(text: &str, parse: &Parse) -> Vec<String> {
    let mut problems = Vec::new();
    if parse.print() != text {
        problems.push("print(parse(x)) != x".to_string());
    }
    if let Err(err) = common::check_tokens(text, parse.tokens()) {
        problems.push(format!("tokens: {err}"));
    }
    let lexed = pcl_syntax::lex(text);
    if lexed.as_slice() != parse.tokens() {
        problems.push("lex(x) differs from parse(x).tokens()".to_string());
    }
    if let Err(err) = common::check_diagnostic_ranges(text, parse.diagnostics()) {
        problems.push(err);
    }
    if let Err(err) = common::check_tree_ranges(text, parse.body()) {
        problems.push(err);
    }
    problems
}

fn check_fixture(path: &Path, expect_errors: bool, failures: &mut Vec<String>) {
    let name = display_name(path);
    let (text, parse, sources, _) = parse_fixture(path);
    for problem in check_invariants(&text, &parse) {
        failures.push(format!("{name}: {problem}"));
    }
    if expect_errors && !parse.has_errors() {
        failures.push(format!("{name}: under err/ but parsed without errors"));
    }
    if !expect_errors && parse.has_errors() {
        failures.push(format!(
            "{name}: under ok/ but has errors:\n{}",
            render_diagnostics(&text, &parse, &sources)
        ));
    }
    if !expect_errors {
        let crlf = to_crlf(&text);
        let crlf_parse = pcl_syntax::parse(FileId(0), &crlf);
        let plain_shape = common::shape_body(parse.body()).replace("\\r\\n", "\\n");
        let crlf_shape = common::shape_body(crlf_parse.body()).replace("\\r\\n", "\\n");
        if crlf_parse.has_errors() || plain_shape != crlf_shape {
            failures.push(format!(
                "{name}: CRLF line endings change the result (errors: {})\n--- LF ---\n{plain_shape}--- CRLF ---\n{crlf_shape}",
                crlf_parse.diagnostics().len()
            ));
        }
        for problem in check_invariants(&crlf, &crlf_parse) {
            failures.push(format!("{name} (CRLF): {problem}"));
        }
    }
    let tree = format!("{HEADER}{}", parse.dump());
    expect_file(&path.with_extension("tree"), &tree, failures);
    if expect_errors {
        let diag = render_diagnostics(&text, &parse, &sources);
        expect_file(&path.with_extension("diag"), &diag, failures);
    }
}

#[test]
fn golden_fixtures() {
    let mut filter = pcl_testkit::Filter::from_env("GOLDEN_FILTER");
    let mut failures = Vec::new();
    let mut count = 0;
    for (dir, expect_errors) in [("ok", false), ("err", true)] {
        for path in common::pp_files(&common::golden_dir().join(dir)) {
            if !filter.keep(&display_name(&path)) {
                continue;
            }
            count += 1;
            check_fixture(&path, expect_errors, &mut failures);
        }
    }
    filter.finish();
    if !filter.active() {
        pcl_testkit::at_least("syntax golden inputs", count, MIN_GOLDEN_INPUTS);
    }
    assert!(
        failures.is_empty(),
        "{} golden failures out of {count} inputs:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The golden inputs under `testdata/syntax/{ok,err}` (183 when this was
/// written), less a margin.
const MIN_GOLDEN_INPUTS: usize = 180;

/// Every input has its expected files, and every expected file its input.
#[test]
fn golden_files_are_paired() {
    let mut problems = Vec::new();
    for (dir, wants_diag) in [("ok", false), ("err", true)] {
        let dir_path = common::golden_dir().join(dir);
        let mut inputs = BTreeSet::new();
        let mut others: Vec<PathBuf> = Vec::new();
        for entry in std::fs::read_dir(&dir_path).unwrap() {
            let path = entry.unwrap().path();
            match path.extension().and_then(|e| e.to_str()) {
                Some("pp") => {
                    inputs.insert(path.with_extension(""));
                }
                _ => others.push(path),
            }
        }
        for stem in &inputs {
            let mut wanted = vec!["tree"];
            if wants_diag {
                wanted.push("diag");
            }
            for ext in wanted {
                if !stem.with_extension(ext).is_file() && !update_mode() {
                    problems.push(format!("{}.{ext} is missing", stem.display()));
                }
            }
        }
        for other in others {
            let ext = other.extension().and_then(|e| e.to_str()).unwrap_or("");
            let allowed = ext == "tree" || (wants_diag && ext == "diag");
            if !allowed || !inputs.contains(&other.with_extension("")) {
                problems.push(format!("{} is orphaned or unexpected", other.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ----------------------------------------------------------------------------
// Facts from the spec notes.

/// The first diagnostic of an `err/` input: code, summary, 1-based line and
/// column (grapheme columns, as the notes count them).
///
/// `summary` is hclsyntax's summary for the same error, kept to say which
/// reference diagnostic the row is about; pcl words its messages itself, so
/// only the code and the position are compared. A `line` of 0 means "this
/// code anywhere in the file".
struct FirstError {
    fixture: &'static str,
    code: &'static str,
    summary: &'static str,
    line: u32,
    column: u32,
}

const fn err(
    fixture: &'static str,
    code: &'static str,
    summary: &'static str,
    line: u32,
    column: u32,
) -> FirstError {
    FirstError {
        fixture,
        code,
        summary,
        line,
        column,
    }
}

/// Rows where pcl deliberately reports the first error at a different
/// token than hclsyntax: (fixture, reference line:column, why). The row in
/// [`FIRST_ERRORS`] holds pcl's position; the test also checks that it
/// differs from the reference one, so this list cannot go stale.
const POSITION_DEVIATIONS: &[(&str, (u32, u32), &str)] = &[
    (
        "spec_l13_number_dot",
        (1, 7),
        "pcl points at the `.`, hclsyntax at the token after it",
    ),
    (
        "spec_h01_marker_at_eof",
        (3, 4),
        "pcl points at the heredoc introducer, hclsyntax at the end of the file",
    ),
    (
        "spec_p05_nested_splat",
        (1, 9),
        "pcl points at the `.` of the second `.*`, hclsyntax at its `*`",
    ),
    (
        "spec_f03_expand_not_last",
        (1, 8),
        "pcl points at the `,` after the expanded argument, hclsyntax at the `...`",
    ),
    (
        "spec_s07_number_label",
        (1, 1),
        "pcl points at the bad label `1`, hclsyntax at the block type",
    ),
    (
        "spec_s13_value_next_line",
        (1, 4),
        "pcl reports missing-attribute-value at `=`, hclsyntax `Invalid expression` at the newline",
    ),
];

const FIRST_ERRORS: &[FirstError] = &[
    err(
        "spec_l04_lone_cr",
        "invalid-character",
        "Invalid character",
        1,
        6,
    ),
    err(
        "spec_l10_emoji_in_ident",
        "invalid-character",
        "Invalid character",
        1,
        6,
    ),
    err(
        "spec_l13_number_dot",
        "invalid-attribute-name",
        "Invalid attribute name",
        1,
        6,
    ),
    err(
        "spec_l16_double_star",
        "expected-expression",
        "Invalid expression",
        1,
        8,
    ),
    err("spec_l17_semicolon", "semicolon", "Invalid character", 1, 6),
    err(
        "spec_c04_no_nested_comments",
        "missing-newline-after-attribute",
        "Missing newline after argument",
        1,
        20,
    ),
    err(
        "spec_h01_marker_at_eof",
        "unterminated-template",
        "Unterminated template string",
        1,
        5,
    ),
    err(
        "spec_h07_trailing_space_intro",
        "expected-expression",
        "Invalid expression",
        1,
        5,
    ),
    err(
        "spec_h10_heredoc_then_operator",
        "expected-attribute-or-block",
        "Argument or block definition required",
        4,
        1,
    ),
    err(
        "spec_h13_heredoc_in_one_line_block",
        "invalid-one-line-block",
        "Invalid single-argument block definition",
        3,
        4,
    ),
    err(
        "spec_t01_backslash_dollar",
        "invalid-escape",
        "Invalid escape sequence",
        1,
        6,
    ),
    err(
        "spec_t06_newline_in_string",
        "multiline-string",
        "Invalid multi-line string",
        1,
        7,
    ),
    err(
        "spec_t08_for_if_directive",
        "extra-in-template-sequence",
        "Extra characters in for marker",
        1,
        20,
    ),
    err(
        "spec_t09_bad_directive",
        "invalid-template-directive",
        "Invalid template control keyword",
        1,
        9,
    ),
    err(
        "spec_t14_label_template",
        "template-in-label",
        "Invalid string literal",
        1,
        4,
    ),
    err(
        "spec_t15_surrogate",
        "invalid-escape",
        "Invalid escape sequence",
        1,
        6,
    ),
    err(
        "spec_t18_strip_in_object",
        "missing-item-separator",
        "Missing attribute separator",
        1,
        16,
    ),
    err(
        "spec_o07_missing_false",
        "missing-conditional-else",
        "Missing false expression in conditional",
        1,
        10,
    ),
    err(
        "spec_o08_cond_newline",
        "expected-expression",
        "Invalid expression",
        1,
        8,
    ),
    err(
        "spec_p02_chained_legacy",
        "invalid-legacy-index",
        "Invalid legacy index syntax",
        1,
        7,
    ),
    err(
        "spec_p05_nested_splat",
        "nested-splat",
        "Nested splat expression not allowed",
        1,
        8,
    ),
    err(
        "spec_p09_dot_next_line",
        "expected-attribute-or-block",
        "Argument or block definition required",
        2,
        1,
    ),
    err(
        "spec_f03_expand_not_last",
        "invalid-expansion",
        "Missing closing parenthesis",
        1,
        11,
    ),
    err(
        "spec_f05_call_next_line",
        "expected-attribute-or-block",
        "Argument or block definition required",
        2,
        1,
    ),
    err(
        "spec_f07_method_call",
        "missing-newline-after-attribute",
        "Missing newline after argument",
        1,
        8,
    ),
    err(
        "spec_k01_newline_not_separator",
        "missing-comma",
        "Missing item separator",
        2,
        1,
    ),
    err(
        "spec_k03_comma_next_line",
        "expected-expression",
        "Invalid expression",
        2,
        1,
    ),
    err(
        "spec_k04_missing_attr_separator",
        "missing-item-separator",
        "Missing attribute separator",
        1,
        13,
    ),
    err(
        "spec_k08_tuple_for_key",
        "invalid-for",
        "Invalid 'for' expression",
        1,
        22,
    ),
    err(
        "spec_k14_dotted_key_name",
        "missing-key-value-separator",
        "Missing key/value separator",
        1,
        16,
    ),
    err(
        "spec_k17_for_as_item",
        "invalid-for",
        "Invalid 'for' expression",
        1,
        9,
    ),
    err(
        "spec_s01_missing_newline",
        "missing-newline-after-attribute",
        "Missing newline after argument",
        1,
        7,
    ),
    err(
        "spec_s02_comma_after_attr",
        "missing-newline-after-attribute",
        "Unexpected comma after argument",
        1,
        14,
    ),
    err(
        "spec_s04_nested_one_line",
        "invalid-one-line-block",
        "Argument definition required",
        1,
        5,
    ),
    err(
        "spec_s05_brace_next_line",
        "invalid-block-header",
        "Invalid block definition",
        1,
        6,
    ),
    err(
        "spec_s07_number_label",
        "expected-attribute-or-block",
        "Argument or block definition required",
        1,
        3,
    ),
    err(
        "spec_s08_quoted_name",
        "quoted-attribute-name",
        "Invalid argument name",
        1,
        1,
    ),
    err(
        "spec_s11_blocks_same_line",
        "missing-newline-after-block",
        "Missing newline after block definition",
        1,
        6,
    ),
    err(
        "spec_s13_value_next_line",
        "missing-attribute-value",
        "Invalid expression",
        1,
        3,
    ),
    err(
        "spec_s16_unclosed_block",
        "unclosed-block",
        "Unclosed configuration block",
        1,
        3,
    ),
    err(
        "specsuite_singleline_bad",
        "missing-newline-after-attribute",
        "Unexpected comma after argument",
        1,
        14,
    ),
    err(
        "specsuite_single_unclosed",
        "unclosed-block",
        "Unclosed configuration block",
        1,
        3,
    ),
    err(
        "specsuite_single_oneline_invalid",
        "invalid-one-line-block",
        "Invalid single-argument block definition",
        1,
        14,
    ),
    err("integer_too_long", "number-too-long", "", 3, 5),
    err("too_deep_parens", "nesting-too-deep", "", 0, 0),
    err("too_deep_tuples", "nesting-too-deep", "", 0, 0),
    err("too_deep_objects", "nesting-too-deep", "", 0, 0),
    err("too_deep_templates", "nesting-too-deep", "", 0, 0),
    err("too_deep_blocks", "nesting-too-deep", "", 0, 0),
];

/// Inputs whose complete list of diagnostics is known: (fixture, [(line, column)]).
/// These pin recovery: one diagnostic per real mistake, no cascades.
const ALL_ERROR_POSITIONS: &[(&str, &[(u32, u32)])] = &[
    ("specsuite_singleline_bad", &[(1, 14)]),
    ("specsuite_single_unclosed", &[(1, 3)]),
    (
        "specsuite_single_oneline_invalid",
        &[(1, 14), (2, 14), (4, 14), (6, 14), (9, 5)],
    ),
    ("spec_s01_missing_newline", &[(1, 7)]),
    ("spec_s11_blocks_same_line", &[(1, 6)]),
    ("multiple_errors", &[(2, 11), (4, 11), (7, 3), (10, 15)]),
    ("multiple_errors_blocks", &[(2, 9), (4, 10), (8, 7)]),
    ("spec_h13_heredoc_in_one_line_block", &[(3, 4)]),
    ("too_deep_parens", &[(9, 1)]),
    ("too_deep_tuples", &[(9, 1)]),
    ("too_deep_blocks", &[(129, 7)]),
];

/// (fixture, attribute, the object's keys as `ObjectItem::bare_key` sees
/// them): a bare word key, keywords included, is a literal name.
const BARE_KEYS: &[(&str, &str, &[Option<&str>])] = &[
    ("spec_k10_for_key", "x", &[Some("baz"), Some("for")]),
    ("spec_k11_key_forms", "x", &[None, Some("b"), None]),
    ("spec_k16_keyword_keys", "x", &[Some("true"), Some("null")]),
    (
        "objects",
        "keyword_keys",
        &[Some("true"), Some("null"), Some("for"), Some("if")],
    ),
];

/// (fixture, attribute name, expected shape) for `ok/` inputs.
const SHAPES: &[(&str, &str, &str)] = &[
    ("spec_l01_bom", "a", "lit(1)"),
    ("spec_l07_dash_ident", "x", "var(a-1)"),
    (
        "spec_l09_unicode",
        "x",
        "((var(héllo) + var(Χαίρετε)) + var(_x))",
    ),
    ("spec_l11_exp", "x", "lit(100000)"),
    ("spec_c01_block_comment_ws", "a", "(lit(1) + lit(2))"),
    ("spec_c03_hash_in_parens", "a", "paren((lit(1) + lit(2)))"),
    (
        "spec_h02_indented_marker",
        "a",
        r#"heredocEOT(["  hello\n"])"#,
    ),
    (
        "spec_h04_flush_tabs",
        "a",
        r#"heredoc-EOT(["Foo\n  Bar\n"])"#,
    ),
    (
        "spec_h06_flush_interp_line",
        "a",
        r#"heredoc-EOT(["    Foo\n", ${var(b)}, "\n    Bar\n"])"#,
    ),
    (
        "spec_h09_marker_after_interp",
        "a",
        r#"heredocEOT([${var(x)}, "EOT\n"])"#,
    ),
    (
        "spec_h15_nested_heredoc",
        "a",
        r#"heredocA([${heredocB(["inner\n"])}, "\n"])"#,
    ),
    ("spec_t03_wrap", "x", "tmpl([${var(a)}])"),
    ("spec_t04_no_wrap", "x", r#"tmpl([" ", ${var(a)}])"#),
    (
        "spec_t12_braces_counted",
        "x",
        "tmpl([${object{var(a) = lit(1)}.a}])",
    ),
    ("spec_o01_not_eq", "x", "(!(var(a)) == var(b))"),
    (
        "spec_o02_cond_right_assoc",
        "x",
        "cond(var(a) ? var(b) : cond(var(c) ? var(d) : var(e)))",
    ),
    (
        "spec_o04_cmp_left_assoc",
        "x",
        "((var(a) < var(b)) < var(c))",
    ),
    ("spec_o05_neg_traversal", "x", "-(var(a).b[lit(0)])"),
    ("spec_p01_legacy_index", "x", "var(a).0.b"),
    (
        "spec_p04_splat_index",
        "x",
        "splat(var(a).*, each=@.b)[lit(0)]",
    ),
    ("spec_p07_neg_index", "x", "var(a)[-(lit(1))]"),
    (
        "spec_p11_mixed_traversal",
        "x",
        r#"var(a)[tmpl(["k"])].b[var(c)].d"#,
    ),
    (
        "spec_f01_namespaced",
        "x",
        "call provider::aws::arn_parse(var(x))",
    ),
    ("spec_f06_call_in_parens", "a", "paren(call f(lit(1)))"),
    (
        "spec_k06_object_for_group",
        "x",
        "{for k, v in var(x): var(k) => var(v)...}",
    ),
    (
        "spec_k11_key_forms",
        "x",
        r#"object{paren(var(a)) = lit(1), var(b) = lit(2), tmpl(["c"]) = lit(3)}"#,
    ),
    ("spec_k12_dotted_key", "x", "object{var(a).b = lit(1)}"),
    ("spec_s10_keyword_names", "for", "lit(2)"),
    (
        "operators",
        "prec_mul_add",
        "((var(a) + (var(b) * var(c))) - ((var(d) / var(e)) % var(f)))",
    ),
    (
        "operators",
        "prec_cmp",
        "((var(a) + lit(1)) < (var(b) * lit(2)))",
    ),
    (
        "operators",
        "prec_eq",
        "((var(a) < var(b)) == (var(c) > var(d)))",
    ),
    (
        "operators",
        "prec_and_or",
        "((var(a) || (var(b) && var(c))) || var(d))",
    ),
    (
        "operators",
        "prec_all",
        "(!(var(a)) || ((((-(var(b)) * var(c)) + var(d)) >= var(e)) && (var(f) != var(g))))",
    ),
    ("operators", "neg_lit", "-(lit(1))"),
    ("operators", "mod_no_space", "(lit(9) % lit(8))"),
    ("operators", "dash_ident", "var(a-1)"),
    ("calls", "expand_last", "call f(var(a), var(b), var(xs)...)"),
    ("calls", "keyword_name", "call for(lit(1))"),
    (
        "splats",
        "full_splat_index",
        "splat(var(a)[*], each=@.b[lit(0)])",
    ),
    ("splats", "attr_splat_chain", "splat(var(a).*, each=@.b.c)"),
    (
        "splats",
        "splat_then_index",
        "splat(var(a).*, each=@.b)[lit(0)]",
    ),
    ("traversals", "legacy_end", "var(a).0"),
    ("escapes", "u4_then_text", r#"tmpl(["\u{1}d11e"])"#),
    ("escapes", "u4_long", r#"tmpl(["ꯍabcd"])"#),
    ("escapes", "dollar_escape", r#"tmpl(["${not_interp}"])"#),
    ("escapes", "percent_escape", r#"tmpl(["%{not_directive}"])"#),
    ("escapes", "double_dollar", r#"tmpl(["$$x"])"#),
    ("escapes", "triple_dollar", r#"tmpl(["$${x}"])"#),
    (
        "big_integers",
        "u256_max",
        "lit(115792089237316195423570985008687907853269984665640564039457584007913129639935)",
    ),
    (
        "integer_wide",
        "two_256",
        "lit(115792089237316195423570985008687907853269984665640564039457584007913129639936)",
    ),
    (
        "integer_wide",
        "times_100",
        "lit(11579208923731619542357098500868790785326998466564056403945758400791312963993600)",
    ),
    ("numbers", "leading_zero", "lit(7)"),
    ("unicode_idents", "combining", r#"tmpl(["año"])"#),
];

/// (fixture, attribute, expected template value) — values after strip
/// markers and flush indentation.
const TEMPLATE_VALUES: &[(&str, &str, &str)] = &[
    (
        "spec_h12_strip_directives",
        "a",
        "hello%if lit(true) then [\"world\"] endif!\n",
    ),
    ("spec_h16_strip_next_line", "a", "x|\nb\n"),
    ("spec_t11_strip_values", "x", "hello | world|"),
    (
        "specsuite_primitive_literals",
        "string_unicode_nonnorm",
        "años",
    ),
];

fn find_attr<'a>(parse: &'a Parse, name: &str) -> Option<ExprRef<'a>> {
    parse
        .body()
        .attributes()
        .find(|attr| attr.name() == name)
        .map(|attr| attr.expr())
}

/// A template's parts flattened to text: literals verbatim, interpolated
/// string literals as `|` + value (so that values never being stripped is
/// visible), directives in shape notation.
fn template_text(expr: ExprRef<'_>) -> String {
    let ExprKind::Template(template) = expr.kind() else {
        return format!("not a template: {}", common::shape_expr(expr));
    };
    let mut out = String::new();
    for part in template.parts() {
        match part.kind() {
            Part::Literal(lit) => out.push_str(lit.value()),
            Part::Interpolation(interp) => match interp.expr().kind() {
                ExprKind::Template(inner) => {
                    out.push_str(inner.literal_value().unwrap_or("<non-literal>"));
                    out.push('|');
                }
                _ => out.push_str(&common::shape_expr(interp.expr())),
            },
            Part::If(dir) => {
                let then: Vec<String> = dir
                    .then_parts()
                    .iter()
                    .map(|p| match p.kind() {
                        Part::Literal(lit) => format!("{:?}", lit.value()),
                        _ => "<part>".to_string(),
                    })
                    .collect();
                out.push_str(&format!(
                    "%if {} then [{}] endif",
                    common::shape_expr(dir.condition()),
                    then.join(", ")
                ));
            }
            Part::For(_) => out.push_str("%for"),
        }
    }
    out
}

#[test]
fn spec_cases() {
    let dir = common::golden_dir();
    let mut failures = Vec::new();
    for case in FIRST_ERRORS {
        let path = dir.join("err").join(format!("{}.pp", case.fixture));
        let (text, parse, _, _) = parse_fixture(&path);
        let Some(first) = parse.diagnostics().first() else {
            failures.push(format!("{}: no diagnostics", case.fixture));
            continue;
        };
        let relevant = if case.line == 0 {
            // Only the code matters (e.g. nesting limits), wherever it is.
            parse
                .diagnostics()
                .iter()
                .find(|d| d.code.as_str() == case.code)
                .unwrap_or(first)
        } else {
            first
        };
        let pos = LineIndex::new(&text).position(&text, relevant.span.range.start);
        let pos_ok = case.line == 0 || (pos.line, pos.column) == (case.line, case.column);
        let deviation = POSITION_DEVIATIONS
            .iter()
            .find(|(fixture, _, _)| *fixture == case.fixture);
        if let Some((_, reference, why)) = deviation {
            if *reference == (case.line, case.column) {
                failures.push(format!(
                    "{}: listed as a deviation ({why}) but the positions agree",
                    case.fixture
                ));
            }
        }
        if relevant.code.as_str() != case.code || !pos_ok {
            failures.push(format!(
                "{}: expected [{}] {:?} @{}:{}, got [{}] {:?} @{}:{}",
                case.fixture,
                case.code,
                case.summary,
                case.line,
                case.column,
                relevant.code,
                relevant.summary,
                pos.line,
                pos.column
            ));
        }
    }
    for (fixture, positions) in ALL_ERROR_POSITIONS {
        let path = dir.join("err").join(format!("{fixture}.pp"));
        let (text, parse, _, _) = parse_fixture(&path);
        let index = LineIndex::new(&text);
        let actual: Vec<(u32, u32)> = parse
            .diagnostics()
            .iter()
            .map(|d| {
                let pos = index.position(&text, d.span.range.start);
                (pos.line, pos.column)
            })
            .collect();
        if actual.as_slice() != *positions {
            let summaries: Vec<&str> = parse
                .diagnostics()
                .iter()
                .map(|d| d.summary.as_str())
                .collect();
            failures.push(format!(
                "{fixture}: expected diagnostics at {positions:?}, got {actual:?} ({summaries:?})"
            ));
        }
    }
    for (fixture, attr, expected) in SHAPES {
        let path = dir.join("ok").join(format!("{fixture}.pp"));
        let (_, parse, _, _) = parse_fixture(&path);
        match find_attr(&parse, attr) {
            None => failures.push(format!("{fixture}: no attribute `{attr}`")),
            Some(expr) => {
                let actual = common::shape_expr(expr);
                if actual != *expected {
                    failures.push(format!(
                        "{fixture}.{attr}:\n  expected {expected}\n  actual   {actual}"
                    ));
                }
            }
        }
    }
    for (fixture, attr, expected) in BARE_KEYS {
        let path = dir.join("ok").join(format!("{fixture}.pp"));
        let (_, parse, _, _) = parse_fixture(&path);
        match find_attr(&parse, attr).map(|expr| expr.kind()) {
            Some(ExprKind::Object(items)) => {
                let actual: Vec<Option<&str>> = items.iter().map(|item| item.bare_key()).collect();
                if actual.as_slice() != *expected {
                    failures.push(format!(
                        "{fixture}.{attr}: bare keys expected {expected:?}, got {actual:?}"
                    ));
                }
            }
            _ => failures.push(format!("{fixture}: `{attr}` is not an object")),
        }
    }
    for (fixture, attr, expected) in TEMPLATE_VALUES {
        let path = dir.join("ok").join(format!("{fixture}.pp"));
        let (_, parse, _, _) = parse_fixture(&path);
        match find_attr(&parse, attr) {
            None => failures.push(format!("{fixture}: no attribute `{attr}`")),
            Some(expr) => {
                let actual = template_text(expr);
                if actual != *expected {
                    failures.push(format!(
                        "{fixture}.{attr}:\n  expected {expected:?}\n  actual   {actual:?}"
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} spec facts failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
